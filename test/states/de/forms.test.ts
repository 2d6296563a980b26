import plugin from '../../../states/de/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
