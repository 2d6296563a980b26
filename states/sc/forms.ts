/** South Carolina: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'SC',
  name: 'South Carolina',
  agency: 'South Carolina Department of Motor Vehicles',
});
