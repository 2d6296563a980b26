import plugin from '../../../states/ct/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
