import plugin from '../../../states/dc/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
