import plugin from '../../../states/ct/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
