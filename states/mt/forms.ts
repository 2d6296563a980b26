/** Montana: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'MT',
  name: 'Montana',
  agency: 'Montana Department of Justice, Motor Vehicle Division',
});
