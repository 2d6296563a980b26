import plugin from '../../../states/hi/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
