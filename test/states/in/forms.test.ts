import plugin from '../../../states/in/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
