import plugin from '../../../states/ut/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
