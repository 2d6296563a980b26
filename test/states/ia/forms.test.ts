import plugin from '../../../states/ia/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
