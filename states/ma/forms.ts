/** Massachusetts: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'MA',
  name: 'Massachusetts',
  agency: 'Massachusetts Registry of Motor Vehicles',
});
