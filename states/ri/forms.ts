/** Rhode Island: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'RI',
  name: 'Rhode Island',
  agency: 'Rhode Island Division of Motor Vehicles',
});
