import plugin from '../../../states/va/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
