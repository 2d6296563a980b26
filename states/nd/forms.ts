/** North Dakota: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'ND',
  name: 'North Dakota',
  agency: 'North Dakota Department of Transportation, Motor Vehicle Division',
});
