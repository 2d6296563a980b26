import plugin from '../../../states/tn/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
