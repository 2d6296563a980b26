import plugin from '../../../states/ri/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
