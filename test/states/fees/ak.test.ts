import { testStateFees } from '../../support/tester-fees.js';

// Alaska golden cases (states/ak/README.md). No official page confirming a fee figure was found: every figure is
// unsourced, so every amount is unknown and every total is 0 (a lower bound), and the estimate says so.
testStateFees('AK', {
  goldens: [
    {
      // title.duplicate $15 is unsourced -> unknown; title total $0
      name: "duplicate title",
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: null }],
        complete: false,
        unknown: [/^title: Duplicate title/],
      },
    },
    {
      // title transfer $15, registration $100 (biennial), state tax 0: all unsourced -> unknown;
      // local (borough/city) tax: county not modelled -> unknown. All totals $0.
      name: "used AK car, $20,000, transfer without a lien",
      input: { transaction: 'transfer', vehicle: { year: 2020, weight_lbs: 3500, title_state: 'AK' }, sale: { price: 20_000 } },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^registration: Registration fee \(\$/, /^tax: Motor vehicle sales tax/, /^tax: Local sales tax \(county not modelled/],
      },
    },
    {
      // title $15 and lien $15: both unsourced -> unknown; title total $0
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
