/** Colorado: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'CO',
  name: 'Colorado',
  agency: 'Colorado Division of Motor Vehicles',
  rules: {
    poaFields: ['dob'],
    sources: [{ doc: 'spec/title-service-spec.md, POST /poa', note: 'DOB only in Arizona, Florida, Colorado' }],
  },
});
