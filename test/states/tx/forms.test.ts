import plugin from '../../../states/tx/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
