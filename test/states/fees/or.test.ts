import { testStateFees } from '../../support/tester-fees.js';

// Oregon golden cases. Sourced: the 0.5% vehicle privilege tax (ORS 320.405), an optional fee (a new vehicle sold by an
// Oregon dealer) that is never in a total. Every other figure is unsourced (README): shown, left out of the totals,
// listed as unknown, so every amount is unknown and every total is $0 (a lower bound); the estimate is incomplete.
testStateFees('OR', {
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
      // title (no amount), registration $220 (2 years), no sales tax (0): unsourced -> unknown. Totals $0.
      name: 'used OR car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'OR' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [
          /^title: Certificate of title \(the amount is not/,
          /^registration: Registration fee \(\$/,
          /^tax: Motor vehicle sales tax/,
        ],
      },
    },
    {
      // title and lien: no amounts -> unknown
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Certificate of title \(the amount is not/, /^title: Lien recording fee/],
      },
    },
  ],
});
