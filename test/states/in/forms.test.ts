import plugin from '../../../states/in/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
