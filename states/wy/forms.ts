/** Wyoming: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'WY',
  name: 'Wyoming',
  agency: 'Wyoming Department of Transportation, Motor Vehicle Services',
});
