/** Missouri: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'MO',
  name: 'Missouri',
  agency: 'Missouri Department of Revenue, Motor Vehicle Bureau',
});
