import plugin from '../../../states/mi/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
