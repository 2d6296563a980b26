import { testStateFees } from '../../support/tester-fees.js';

// Louisiana golden cases. Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown; none of Louisiana's figures could be confirmed, so every amount is unknown
// and every total is $0 (a lower bound); the estimate says it is incomplete.
testStateFees('LA', {
  goldens: [
    {
      // duplicate (no amount) and OMV handling fee $8 unsourced -> unknown
      name: "duplicate title",
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Duplicate title/, /^title: OMV handling fee/],
      },
    },
    {
      // title $68.50, handling fee $8, registration by value, 4.45% tax: unsourced -> unknown; local: county (parish) not modelled. Totals $0.
      name: "used LA car, $20,000, transfer without a lien",
      input: { transaction: 'transfer', vehicle: { year: 2020, weight_lbs: 3500, title_state: 'LA' }, sale: { price: 20_000 } },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^title: OMV handling fee/, /^registration: Registration fee \(by value\)/, /^tax: State motor vehicle sales tax/, /^tax: Local sales tax \(county not modelled/],
      },
    },
    {
      // title $68.50, lien $15, handling fee $8 unsourced -> unknown
      name: "refinance: title and lien fee only",
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^title: Lien recording fee/, /^title: OMV handling fee/],
      },
    },
  ],
});
