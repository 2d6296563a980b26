import plugin from '../../../states/ny/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
