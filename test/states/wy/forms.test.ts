import plugin from '../../../states/wy/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
