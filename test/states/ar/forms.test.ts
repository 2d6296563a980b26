import plugin from '../../../states/ar/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
