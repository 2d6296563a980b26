import { testStateFees } from '../../support/tester-fees.js';

// Colorado golden cases. Sourced on county clerks' pages (official county sites): transfer title $7.20 and duplicate $8.20
// (Rio Blanco fees page), lien $5 and state tax 2.9% (Adams County), Rio Blanco county tax 3.6%, the ownership tax 2.1% of 85% of
// MSRP with its age schedule (Las Animas County). The trade-in credit is unsourced.
testStateFees('CO', {
  goldens: [
    {
      // duplicate $8.20 (sourced); nothing unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 8.2 },
        total: 8.2,
        items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: 8.2 }],
        complete: true,
        unknown: [],
      },
    },
    {
      // county Rio Blanco, MSRP $30,000, model year 2020 (age 6 in 2026: the schedule gives 0.214286 from age 4 on)
      // registration: $30,000 x 85% = $25,500 x 0.214286 = $5,464.29 x 2.1% = $114.75 (FASTER and Keep Colorado Wild fees are optional: not included)
      // tax: 2.9% x $20,000 = $580 state + 3.6% x $20,000 = $720 Rio Blanco = $1,300
      // title: transfer $7.20; total $1,300 + $114.75 + $7.20 = $1,421.95
      name: 'used CO car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        county: 'Rio Blanco',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'CO', msrp: 30_000 },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1300 },
        registration: { total: 114.75 },
        title: { total: 7.2 },
        total: 1421.95,
        items: [
          { section: 'registration', feeType: 'RegistrationFee', value: 114.75 },
          { section: 'tax', feeType: 'LocalTax', value: 720 },
        ],
        complete: true,
        unknown: [],
      },
    },
    {
      // title transfer $7.20 + lien $5 = $12.20; nothing unknown
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 12.2 },
        total: 12.2,
        complete: true,
        unknown: [],
      },
    },
  ],
});
