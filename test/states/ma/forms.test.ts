import plugin from '../../../states/ma/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
