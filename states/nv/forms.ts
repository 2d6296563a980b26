/** Nevada: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'NV',
  name: 'Nevada',
  agency: 'Nevada Department of Motor Vehicles',
});
