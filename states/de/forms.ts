/** Delaware: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'DE',
  name: 'Delaware',
  agency: 'Delaware Division of Motor Vehicles',
});
