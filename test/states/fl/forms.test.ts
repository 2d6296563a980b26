import plugin from '../../../states/fl/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
