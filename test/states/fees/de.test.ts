import { testStateFees } from '../../support/tester-fees.js';

// Delaware golden cases. Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown; none of the title, registration or document-fee figures could be confirmed.
testStateFees('DE', {
  goldens: [
    {
      // duplicate: no amount and unsourced -> unknown
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
      // title $35, registration $40, 4.25% document fee: unsourced -> unknown. Totals $0.
      name: 'used DE car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'DE' },
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
          /^registration: Registration fee \(\$/,
          /^tax: State motor vehicle sales tax/,
        ],
      },
    },
    {
      // title $35 and lien $20 unsourced -> unknown
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
