/** Iowa: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'IA',
  name: 'Iowa',
  agency: 'Iowa Department of Transportation, Motor Vehicle Division',
});
