import { testStateFees } from '../../support/tester-fees.js';

// Maryland golden cases. Sourced (Transportation § 13-809): the trade-in allowance comes off the total purchase price,
// and no political subdivision taxes the titling. The excise rate, the fees and the $640 minimum's tax are unsourced
// (README): shown, left out of the totals, listed as unknown, so every amount is unknown and every total is $0 (a
// lower bound); a trade-in credit on the unsourced tax is not counted either. The estimate says it is incomplete.
testStateFees('MD', {
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
      // title $200, registration by weight, 6.5% excise: unsourced -> unknown. Totals $0.
      name: 'used MD car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'MD' },
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
      // title $200 and lien $40 unsourced -> unknown
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
