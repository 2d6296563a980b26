/** South Dakota: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'SD',
  name: 'South Dakota',
  agency: 'South Dakota Department of Revenue, Division of Motor Vehicles',
});
