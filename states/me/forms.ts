/** Maine: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'ME',
  name: 'Maine',
  agency: 'Maine Bureau of Motor Vehicles',
});
