/** Hawaii: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'HI',
  name: 'Hawaii',
  agency: 'County motor vehicle registration and licensing office (Hawaii)',
});
