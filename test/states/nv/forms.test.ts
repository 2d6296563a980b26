import plugin from '../../../states/nv/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
