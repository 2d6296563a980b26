/** New Jersey: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'NJ',
  name: 'New Jersey',
  agency: 'New Jersey Motor Vehicle Commission',
  rules: {
    poaFields: ['ssn'],
    sources: [{ doc: 'spec/title-service-spec.md, POST /poa', note: 'SSN only in New Jersey and Ohio' }],
  },
});
