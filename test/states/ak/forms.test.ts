import plugin from '../../../states/ak/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
