import plugin from '../../../states/tx/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
