import plugin from '../../../states/mt/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
