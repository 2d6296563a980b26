import plugin from '../../../states/nc/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
