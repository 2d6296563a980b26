import plugin from '../../../states/nv/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
