import plugin from '../../../states/de/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
