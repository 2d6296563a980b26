import plugin from '../../../states/ma/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
