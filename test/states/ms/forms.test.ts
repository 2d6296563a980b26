import plugin from '../../../states/ms/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
