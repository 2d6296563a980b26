import plugin from '../../../states/pa/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
