import plugin from '../../../states/ky/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
