import plugin from '../../../states/nc/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
