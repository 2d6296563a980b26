import plugin from '../../../states/ks/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
