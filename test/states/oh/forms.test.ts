import plugin from '../../../states/oh/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
