import plugin from '../../../states/ca/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
