import plugin from '../../../states/or/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
