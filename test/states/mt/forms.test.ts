import plugin from '../../../states/mt/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
