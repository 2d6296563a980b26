import plugin from '../../../states/mn/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
