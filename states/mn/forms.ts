/** Minnesota: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'MN',
  name: 'Minnesota',
  agency: 'Minnesota Driver and Vehicle Services',
});
