/** Arkansas: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'AR',
  name: 'Arkansas',
  agency: 'Arkansas Department of Finance and Administration, Office of Motor Vehicle',
});
