import plugin from '../../../states/ne/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
