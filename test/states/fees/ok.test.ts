import { testStateFees } from '../../support/tester-fees.js';

// Oklahoma golden cases. Sourced: title transfer fee $11 (Oklahoma Tax Commission "Motor Vehicle Fees"). Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown.
testStateFees('OK', {
  goldens: [
    {
      // duplicate $11 unsourced -> unknown
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
      // title transfer $11 (sourced); registration by age and $1.50 add-on, 3.25% excise and 1.25% sales tax: unsourced -> unknown
      // total $11
      name: 'used OK car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'OK' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 11 },
        total: 11,
        items: [{ section: 'title', feeType: 'TitleFee', value: 11 }],
        complete: false,
        unknown: [
          /^registration: Registration fee \(by age\)/,
          /^registration: Registration add-on/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Motor vehicle sales tax portion/,
        ],
      },
    },
    {
      // title transfer $11 (sourced); lien fee no amount -> unknown; total $11
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 11 },
        total: 11,
        complete: false,
        unknown: [/^title: Lien recording fee/],
      },
    },
  ],
});
