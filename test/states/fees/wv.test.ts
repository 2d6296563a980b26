import { testStateFees } from '../../support/tester-fees.js';

// West Virginia golden cases. Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown; none of West Virginia's figures could be confirmed, so every amount is unknown
// and every total is $0 (a lower bound); the estimate says it is incomplete.
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
      // title $15, registration $51.50, 6% privilege tax: unsourced -> unknown. Totals $0.
      name: 'used WV car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'WV' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [
          /^title: Certificate of title \(transfer\)/,
          /^registration: Registration fee \(\$/,
          /^tax: State motor vehicle sales tax/,
        ],
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
