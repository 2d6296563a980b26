/** West Virginia: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'WV',
  name: 'West Virginia',
  agency: 'West Virginia Division of Motor Vehicles',
});
