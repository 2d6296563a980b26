import plugin from '../../../states/la/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
