/** Utah: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'UT',
  name: 'Utah',
  agency: 'Utah State Tax Commission, Division of Motor Vehicles',
});
