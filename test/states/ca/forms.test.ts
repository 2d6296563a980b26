import plugin from '../../../states/ca/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
