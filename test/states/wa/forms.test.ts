import plugin from '../../../states/wa/forms.js';
import { testStatePlugin } from '../../../states/tester.js';

testStatePlugin(plugin);
