import plugin from '../../../states/nj/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
