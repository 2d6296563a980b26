/** Connecticut: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'CT',
  name: 'Connecticut',
  agency: 'Connecticut Department of Motor Vehicles',
});
