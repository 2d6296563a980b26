import { testStateFees } from '../../support/tester-fees.js';

// West Virginia golden cases. Sourced (W. Va. Code): the $50 Class A registration (17A-10-3(a)(1)), the optional hybrid
// $100 and electric $200 fees (17A-10-3c) and the $10 registration transfer (17A-10-10). Every other figure is
// unsourced (README): shown, left out of the totals, listed as unknown; the estimate says it is incomplete.
testStateFees('WV', {
  goldens: [
    {
      // duplicate: no amount, unsourced -> unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Duplicate title/],
      },
    },
    {
      // registration: Class A, $50 a year (17A-10-3(a)(1)); title $15 and the 6% privilege tax unsourced -> unknown.
      // Total $50.
      name: 'used WV car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'WV' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 50 },
        title: { total: 0 },
        total: 50,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^tax: State motor vehicle sales tax/],
      },
    },
    {
      // title $15 and lien $10 unsourced -> unknown
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^title: Lien recording fee/],
      },
    },
  ],
});
