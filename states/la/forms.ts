/** Louisiana: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'LA',
  name: 'Louisiana',
  agency: 'Louisiana Office of Motor Vehicles',
});
