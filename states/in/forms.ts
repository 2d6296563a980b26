/** Indiana: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'IN',
  name: 'Indiana',
  agency: 'Indiana Bureau of Motor Vehicles',
});
