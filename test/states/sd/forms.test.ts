import plugin from '../../../states/sd/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
