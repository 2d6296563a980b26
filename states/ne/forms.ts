/** Nebraska: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'NE',
  name: 'Nebraska',
  agency: 'Nebraska Department of Motor Vehicles',
});
