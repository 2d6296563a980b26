import plugin from '../../../states/md/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
