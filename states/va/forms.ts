/** Virginia: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'VA',
  name: 'Virginia',
  agency: 'Virginia Department of Motor Vehicles',
});
