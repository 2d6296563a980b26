import plugin from '../../../states/nh/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
