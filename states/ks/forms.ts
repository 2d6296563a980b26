/** Kansas: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'KS',
  name: 'Kansas',
  agency: 'Kansas Department of Revenue, Division of Vehicles',
});
