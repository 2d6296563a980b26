import plugin from '../../../states/wi/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
