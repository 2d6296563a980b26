import plugin from '../../../states/wi/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
