/** New Mexico: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'NM',
  name: 'New Mexico',
  agency: 'New Mexico Motor Vehicle Division',
});
