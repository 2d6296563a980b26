import plugin from '../../../states/sc/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
