import plugin from '../../../states/nd/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
