import { testStateFees } from '../../support/tester-fees.js';

// New Mexico golden cases. Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown; none of New Mexico's figures could be confirmed, so every amount is unknown
// and every total is $0 (a lower bound); the estimate says it is incomplete.
testStateFees('NM', {
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
      // title $5, registration by weight, 4% MVET: unsourced -> unknown. Totals $0.
      name: 'used NM car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'NM' },
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
          /^registration: Registration fee \(by weight\)/,
          /^tax: State motor vehicle sales tax/,
        ],
      },
    },
    {
      // title $5 unsourced, lien no amount -> unknown
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
