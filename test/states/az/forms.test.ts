import plugin from '../../../states/az/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
