import { testStateFees } from '../../support/tester-fees.js';

// Missouri golden cases. Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown; none of Missouri's figures could be confirmed, so every amount is unknown
// and every total is $0 (a lower bound); the estimate says it is incomplete.
testStateFees('MO', {
  goldens: [
    {
      // duplicate (no amount) and title processing fee $6 unsourced -> unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Duplicate title/, /^title: Title processing fee/],
      },
    },
    {
      // title $8.50, processing fees $6 + $6, registration $24.25, 4.225% tax: unsourced -> unknown; local: county not modelled. Totals $0.
      name: 'used MO car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'MO' },
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
          /^title: Title processing fee/,
          /^registration: Registration fee \(\$/,
          /^registration: Registration processing fee/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
    {
      // title $8.50 unsourced, lien no amount, processing fee $6 -> unknown
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [
          /^title: Certificate of title \(transfer\)/,
          /^title: Lien recording fee/,
          /^title: Title processing fee/,
        ],
      },
    },
  ],
});
