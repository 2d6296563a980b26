import plugin from '../../../states/me/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
