import plugin from '../../../states/ar/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
