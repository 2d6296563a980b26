import plugin from '../../../states/ri/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
