import plugin from '../../../states/ky/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
