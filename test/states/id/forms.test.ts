import plugin from '../../../states/id/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
