import plugin from '../../../states/ks/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
