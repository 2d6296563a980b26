/** New Hampshire: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'NH',
  name: 'New Hampshire',
  agency: 'New Hampshire Division of Motor Vehicles',
});
