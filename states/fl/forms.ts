/**
 * Florida: drawn layouts named after the state's own forms; a vehicle last
 * titled in another state needs its VIN verified (HSMV 82042).
 */
import { defineState } from '../standard.js';

export default defineState({
  code: 'FL',
  name: 'Florida',
  agency: 'Florida Department of Highway Safety and Motor Vehicles',
  drawn: {
    form_title_application: { officialName: 'HSMV 82040, Application for Certificate of Title' },
    form_vin_verification: { officialName: 'HSMV 82042, Vehicle Identification Number and Odometer Verification' },
    form_duplicate_title: { officialName: 'HSMV 82101, Application for Duplicate or Lost in Transit/Reassignment' },
    forms_poa: { officialName: 'HSMV 82053, Power of Attorney for Motor Vehicle, Mobile Home or Vessel' },
  },
  rules: {
    poaFields: ['dob'],
    sources: [{ doc: 'spec/title-service-spec.md, POST /poa', note: 'DOB only in Arizona, Florida, Colorado' }],
  },
});
