import plugin from '../../../states/sc/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
