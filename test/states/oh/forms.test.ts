import plugin from '../../../states/oh/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
