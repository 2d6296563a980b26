/** North Carolina: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'NC',
  name: 'North Carolina',
  agency: 'North Carolina Division of Motor Vehicles',
});
