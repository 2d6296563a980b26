/** Michigan: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'MI',
  name: 'Michigan',
  agency: 'Michigan Department of State',
});
