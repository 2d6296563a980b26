import plugin from '../../../states/ne/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
