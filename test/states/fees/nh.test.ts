import { testStateFees } from '../../support/tester-fees.js';

// New Hampshire golden cases. Sourced: the $35 title, transfer and duplicate title fees (RSA 261:20 I(a)-(c) as effective
// January 1, 2026, on the General Court's site). Every other figure is unsourced or unknown (README).
testStateFees('NH', {
  goldens: [
    {
      // duplicate certificate of title $35 (RSA 261:20 I(c)). Total $35.
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 35 },
        total: 35,
        items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: 35 }],
        complete: true,
        unknown: [],
      },
    },
    {
      // title after a transfer $35 (RSA 261:20 I(b)); town permit fee by MSRP (none given), town clerk fee $2, no sales
      // tax (0): unsourced/unknown. Total $35.
      name: 'used NH car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'NH' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 35 },
        total: 35,
        items: [{ section: 'title', feeType: 'TitleFee', value: 35 }],
        complete: false,
        unknown: [
          /^registration: Registration fee \(by value\)/,
          /^registration: Town clerk fee/,
          /^tax: Motor vehicle sales tax/,
        ],
      },
    },
    {
      // title $35 (RSA 261:20 I(b)); the lien fee has no single amount ($20 notice of security interest, or none when the
      // lienholder is named on the title application) -> unknown. Total $35.
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 35 },
        total: 35,
        complete: false,
        unknown: [/^title: Lien recording fee/],
      },
    },
  ],
});
