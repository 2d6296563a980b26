import plugin from '../../../states/id/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
