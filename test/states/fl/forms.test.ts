import plugin from '../../../states/fl/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
