import plugin from '../../../states/ia/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
