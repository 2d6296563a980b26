import plugin from '../../../states/ok/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
