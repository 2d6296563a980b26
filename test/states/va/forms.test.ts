import plugin from '../../../states/va/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
