/** Wisconsin: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'WI',
  name: 'Wisconsin',
  agency: 'Wisconsin Department of Transportation, Division of Motor Vehicles',
});
