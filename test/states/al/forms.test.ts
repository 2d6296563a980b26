import plugin from '../../../states/al/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
