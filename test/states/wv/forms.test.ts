import plugin from '../../../states/wv/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
