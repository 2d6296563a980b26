import plugin from '../../../states/co/forms.js';
import { testStatePlugin } from '../../support/tester.js';

// DR 2116 re-establishes a lost Colorado title: the full fixture again, its title issued by Colorado
testStatePlugin(plugin, { variants: [{ name: 'full-co-title', fixture: 'full', options: { issuingState: 'CO' } }] });
