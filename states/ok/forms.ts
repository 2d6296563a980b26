/** Oklahoma: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'OK',
  name: 'Oklahoma',
  agency: 'Service Oklahoma',
});
