import plugin from '../../../states/la/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
