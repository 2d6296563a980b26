/** Pennsylvania: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'PA',
  name: 'Pennsylvania',
  agency: 'Pennsylvania Department of Transportation, Bureau of Motor Vehicles',
});
