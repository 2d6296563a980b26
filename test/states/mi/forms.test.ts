import plugin from '../../../states/mi/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
