/** Arizona: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'AZ',
  name: 'Arizona',
  agency: 'Arizona Department of Transportation, Motor Vehicle Division',
  rules: {
    poaFields: ['dob'],
    sources: [{ doc: 'spec/title-service-spec.md, POST /poa', note: 'DOB only in Arizona, Florida, Colorado' }],
  },
});
