import plugin from '../../../states/wv/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
