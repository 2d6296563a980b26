import { testStateFees } from '../../support/tester-fees.js';

// Indiana golden cases. Sourced: the $15 certificate of title fee (IC 9-17-2-14.5(c)). Every other figure is
// unsourced (README): shown, left out of the totals, listed as unknown; the estimate says it is incomplete.
testStateFees('IN', {
  goldens: [
    {
      // duplicate $15 unsourced -> unknown
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
      // title $15 (IC 9-17-2-14.5(c): "fifteen dollars ($15)"); registration $21.35 and 7% tax unsourced -> unknown.
      // Total $15.
      name: 'used IN car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'IN' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 15 },
        total: 15,
        items: [{ section: 'title', feeType: 'TitleFee', value: 15 }],
        complete: false,
        unknown: [/^registration: Registration fee \(\$/, /^tax: State motor vehicle sales tax/],
      },
    },
    {
      // title $15 (IC 9-17-2-14.5(c)); lien $10 unsourced -> unknown. Total $15.
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
