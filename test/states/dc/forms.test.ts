import plugin from '../../../states/dc/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
