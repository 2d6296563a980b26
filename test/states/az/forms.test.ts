import plugin from '../../../states/az/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
