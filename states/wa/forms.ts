/** Washington: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'WA',
  name: 'Washington',
  agency: 'Washington State Department of Licensing',
});
