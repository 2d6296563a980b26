import plugin from '../../../states/tn/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
