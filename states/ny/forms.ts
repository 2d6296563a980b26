/** New York: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'NY',
  name: 'New York',
  agency: 'New York State Department of Motor Vehicles',
});
