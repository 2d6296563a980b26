import { testStateFees } from '../../support/tester-fees.js';

// Nebraska golden cases. Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown; none of Nebraska's figures could be confirmed, so every amount is unknown
// and every total is $0 (a lower bound); the estimate says it is incomplete.
testStateFees('NE', {
  goldens: [
    {
      // duplicate $14 and portal fee $3 unsourced -> unknown
      name: "duplicate title",
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Duplicate title/, /^title: Portal fee/],
      },
    },
    {
      // title $10, portal fee $3, registration $15, 5.5% tax: unsourced -> unknown; local: county not modelled. Totals $0.
      name: "used NE car, $20,000, transfer without a lien",
      input: { transaction: 'transfer', vehicle: { year: 2020, weight_lbs: 3500, title_state: 'NE' }, sale: { price: 20_000 } },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^title: Portal fee/, /^registration: Registration fee \(\$/, /^tax: State motor vehicle sales tax/, /^tax: Local sales tax \(county not modelled/],
      },
    },
    {
      // title $10, lien $7, portal fee $3 unsourced -> unknown
      name: "refinance: title and lien fee only",
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^title: Lien recording fee/, /^title: Portal fee/],
      },
    },
  ],
});
