import plugin from '../../../states/ms/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
