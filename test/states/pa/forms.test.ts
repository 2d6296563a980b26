import plugin from '../../../states/pa/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
