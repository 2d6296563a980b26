import { testStateFees } from '../../support/tester-fees.js';

// North Dakota golden cases. Sourced: the trade-in comes off the purchase price (N.D.C.C. 57-40.3-01(5)); as the 5%
// rate is unsourced, no credit is counted either. Every other figure is unsourced (README): shown, left out of the
// totals, listed as unknown, so every amount is unknown and every total is $0 (a lower bound); the estimate is incomplete.
testStateFees('ND', {
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
      // title $5, registration by gross weight (none given), 5% excise: unsourced/unknown. Totals $0.
      name: 'used ND car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'ND' },
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
