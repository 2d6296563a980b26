import plugin from '../../../states/ut/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
