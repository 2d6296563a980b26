import plugin from '../../../states/or/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
