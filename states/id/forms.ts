/** Idaho: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'ID',
  name: 'Idaho',
  agency: 'Idaho Transportation Department, Division of Motor Vehicles',
});
