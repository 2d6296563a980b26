import plugin from '../../../states/md/forms.js';
import { testStatePlugin } from '../../support/tester.js';

testStatePlugin(plugin);
