import plugin from '../../../states/nh/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
