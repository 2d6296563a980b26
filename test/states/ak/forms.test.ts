import plugin from '../../../states/ak/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
