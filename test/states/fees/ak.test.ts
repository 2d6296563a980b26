import { testStateFees } from '../../support/tester-fees.js';

// Alaska golden cases (states/ak/README.md). Sourced: the $100 biennial passenger registration (AS 28.10.421(b)(1)(A)).
// Every other figure is unsourced: shown, not counted, and the estimate says it is incomplete.
testStateFees('AK', {
  goldens: [
    {
      // title.duplicate $15 is unsourced -> unknown; title total $0
      name: 'duplicate title',
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
      // registration $100 for two years (AS 28.10.421(b)(1)(A): "... $100"); title transfer $15 and state tax 0
      // unsourced -> unknown; local (borough/city) tax: county not modelled -> unknown. Total $100.
      name: 'used AK car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'AK' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 100 },
        title: { total: 0 },
        total: 100,
        items: [{ section: 'registration', feeType: 'RegistrationFee', value: 100 }],
        complete: false,
        unknown: [
          /^title: Certificate of title \(transfer\)/,
          /^tax: Motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
    {
      // title $15 and lien $15: both unsourced -> unknown; title total $0
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
