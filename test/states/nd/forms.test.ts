import plugin from '../../../states/nd/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
