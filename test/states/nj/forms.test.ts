import plugin from '../../../states/nj/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
