import plugin from '../../../states/hi/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
