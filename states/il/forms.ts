/** Illinois: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'IL',
  name: 'Illinois',
  agency: 'Illinois Secretary of State, Vehicle Services Department',
});
