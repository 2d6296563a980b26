import plugin from '../../../states/me/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
