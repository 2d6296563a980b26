import plugin from '../../../states/ga/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
