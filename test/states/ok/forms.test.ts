import plugin from '../../../states/ok/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
