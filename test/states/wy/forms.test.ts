import plugin from '../../../states/wy/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
