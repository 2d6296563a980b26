import plugin from '../../../states/co/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
