import plugin from '../../../states/nm/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
