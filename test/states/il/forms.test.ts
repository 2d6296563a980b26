import plugin from '../../../states/il/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
