import { testStateFees } from '../../support/tester-fees.js';

// Tennessee golden cases. Sourced (TN Department of Revenue, Lien Notation page): the $5.50 state title fee (also for a
// duplicate), the $8.50 county clerk fee and the $11 lien notation fee. Every other figure is unsourced (README): shown,
// left out of the totals, listed as unknown; the estimate says it is incomplete.
testStateFees('TN', {
  goldens: [
    {
      // duplicate: state title fee $5.50 + county clerk fee $8.50 = $14.00. Total $14.
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 14 },
        total: 14,
        complete: true,
        unknown: [],
      },
    },
    {
      // title $5.50 + county clerk fee $8.50 = $14; registration $26.50 and county fee, 7% state tax, single article tax:
      // unsourced -> unknown; local: county not modelled. Total $14.
      name: 'used TN car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'TN' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 14 },
        total: 14,
        complete: false,
        unknown: [
          /^registration: Registration fee \(\$/,
          /^registration: County registration fee/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
          /^tax: State single article tax/,
        ],
      },
    },
    {
      // title $5.50 + lien notation $11 + county clerk fee $8.50 = $25.00. Total $25.
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 25 },
        total: 25,
        complete: true,
        unknown: [],
      },
    },
  ],
});
