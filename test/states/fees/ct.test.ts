import { testStateFees } from '../../support/tester-fees.js';

// Connecticut golden cases. Sourced (CT DMV tax pages): sales tax 6.35%, 7.75% for a passenger vehicle over $50,000 (an optional
// increment the calculator lists as not included). Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown.
testStateFees('CT', {
  goldens: [
    {
      // duplicate $25 unsourced -> unknown
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
      // tax 6.35% x $20,000 = $1,270; title $25 and registration $120 (3 years) unsourced -> unknown; no local tax
      // total $1,270
      name: 'used CT car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'CT' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1270 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 1270,
        items: [{ section: 'tax', feeType: 'StateTax', value: 1270 }],
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^registration: Registration fee \(\$/],
      },
    },
    {
      // title $25 and lien $10 unsourced -> unknown
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
