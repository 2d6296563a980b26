import plugin from '../../../states/ga/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
