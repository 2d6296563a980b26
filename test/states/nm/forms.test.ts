import plugin from '../../../states/nm/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
