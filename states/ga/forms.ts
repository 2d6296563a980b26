/** Georgia: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'GA',
  name: 'Georgia',
  agency: 'Georgia Department of Revenue, Motor Vehicle Division',
});
