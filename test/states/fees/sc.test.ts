import { testStateFees } from '../../support/tester-fees.js';

// South Carolina golden cases. Sourced (SCDMV "New Fee Beginning July 1, 2017", S.C. Code 56-3-627): the infrastructure maintenance fee,
// 5% of the purchase price, no more than $500; the $15 title, transfer and duplicate title fee (S.C. Code 56-19-420(A)).
// Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown.
testStateFees('SC', {
  goldens: [
    {
      // duplicate certificate of title $15 (56-19-420(A)(3)). Total $15.
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 15 },
        total: 15,
        complete: true,
        unknown: [],
      },
    },
    {
      // IMF: 5% x $20,000 = $1,000, capped at $500 (a $500 subtract adjustment); title transfer $15 (56-19-420(A)(2));
      // registration $40 unsourced -> unknown; total $515
      name: 'used SC car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'SC' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 500 },
        registration: { total: 0 },
        title: { total: 15 },
        total: 515,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1000 },
          { section: 'tax', feeType: 'TaxAdjustment', value: 500 },
        ],
        complete: false,
        unknown: [/^registration: Registration fee \(\$/],
      },
    },
    {
      // IMF: 5% x $8,000 = $400 (under $500: no adjustment); title $15; registration unknown; total $415
      name: 'used SC car, $8,000: under the cap',
      input: { transaction: 'transfer', vehicle: { year: 2015, title_state: 'SC' }, sale: { price: 8_000 } },
      expect: {
        tax: { total: 400 },
        registration: { total: 0 },
        title: { total: 15 },
        total: 415,
        items: [{ section: 'tax', feeType: 'StateTax', value: 400 }],
        complete: false,
        unknown: [/^registration: Registration fee \(\$/],
      },
    },
    {
      // title $15 (56-19-420(A)(2)); lien no amount -> unknown. Total $15.
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 15 },
        total: 15,
        complete: false,
        unknown: [/^title: Lien recording fee/],
      },
    },
  ],
});
