import plugin from '../../../states/vt/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
