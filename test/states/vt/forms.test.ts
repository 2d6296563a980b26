import plugin from '../../../states/vt/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
