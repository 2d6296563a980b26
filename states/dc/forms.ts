/** District of Columbia: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'DC',
  name: 'District of Columbia',
  agency: 'District of Columbia Department of Motor Vehicles',
});
