import plugin from '../../../states/sd/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
