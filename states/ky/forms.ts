/** Kentucky: the standard forms and layouts (states/standard.ts); see docs/forms.md. */
import { defineState } from '../standard.js';

export default defineState({
  code: 'KY',
  name: 'Kentucky',
  agency: 'Kentucky Transportation Cabinet, Division of Motor Vehicle Licensing',
  rules: {
    poaFields: ['plate'],
    sources: [
      {
        doc: 'spec/title-service-spec.md, POST /poa',
        note: 'plate only in Alabama, Alaska, California, Kentucky, Oregon, Vermont',
      },
    ],
  },
});
