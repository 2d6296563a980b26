import plugin from '../../../states/mo/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
