import plugin from '../../../states/ny/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
