import plugin from '../../../states/co/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
