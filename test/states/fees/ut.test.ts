import { testStateFees } from '../../support/tester-fees.js';

// Utah golden cases. Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown; none of Utah's figures could be confirmed, so every amount is unknown
// and every total is $0 (a lower bound); the estimate says it is incomplete.
testStateFees('UT', {
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
      // title $6, age-based fee, registration $44, driver education $2.50, uninsured motorist $1, 4.85% tax: unsourced -> unknown; local: county not modelled. Totals $0.
      name: 'used UT car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'UT' },
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
          /^registration: Registration fee \(by age\)/,
          /^registration: Registration fee \(passenger car\)/,
          /^registration: Automobile driver education fee/,
          /^registration: Uninsured motorist/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
    {
      // title $6 unsourced, lien no amount -> unknown
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
