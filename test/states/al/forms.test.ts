import plugin from '../../../states/al/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
