import plugin from '../../../states/wa/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
