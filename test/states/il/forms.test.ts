import plugin from '../../../states/il/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
