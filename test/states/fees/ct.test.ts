import { testStateFees } from '../../../states/tester-fees.js';

// Connecticut golden cases. every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown; none of the title, registration or tax figures could be confirmed.
testStateFees('CT', {
  goldens: [
    {
      // duplicate $25 unsourced -> unknown
      name: "duplicate title",
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Duplicate title/],
      },
    },
    {
      // title $25, registration $120 (3 years), 6.35% tax: unsourced -> unknown; no local tax. Totals $0.
      name: "used CT car, $20,000, transfer without a lien",
      input: { transaction: 'transfer', vehicle: { year: 2020, weight_lbs: 3500, title_state: 'CT' }, sale: { price: 20_000 } },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^registration: Registration fee \(\$/, /^tax: State motor vehicle sales tax/],
      },
    },
    {
      // title $25 and lien $10 unsourced -> unknown
      name: "refinance: title and lien fee only",
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
