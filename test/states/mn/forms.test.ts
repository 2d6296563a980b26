import plugin from '../../../states/mn/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
