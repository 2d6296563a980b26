/** Mississippi: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'MS',
  name: 'Mississippi',
  agency: 'Mississippi Department of Revenue, Title Bureau',
});
