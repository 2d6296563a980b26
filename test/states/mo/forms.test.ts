import plugin from '../../../states/mo/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
