/** Tennessee: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'TN',
  name: 'Tennessee',
  agency: 'Tennessee Department of Revenue, Vehicle Services Division',
});
