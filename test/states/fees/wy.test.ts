import { testStateFees } from '../../support/tester-fees.js';

// Wyoming golden cases. Sourced (Laramie County "Vehicle registration fees"): county registration fee 3% of 60% of the factory price x the
// year-of-service rate (100%, 83.33%, 66.67%, 50%, 33.33%, 25% from the 6th year) plus the $30 state fee. Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown.
testStateFees('WY', {
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
      // MSRP $30,000, model year 2020: 6th year or later -> 25%: $30,000 x 60% x 25% = $4,500 x 3% = $135 + $30 = $165
      // title $15 and 4% tax unsourced -> unknown; local: county not modelled. Total $165
      name: 'used WY car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'WY', msrp: 30_000 },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 165 },
        title: { total: 0 },
        total: 165,
        items: [{ section: 'registration', feeType: 'RegistrationFee', value: 165 }],
        complete: false,
        unknown: [
          /^title: Certificate of title \(transfer\)/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
    {
      // first year (100%): $40,000 x 60% = $24,000 x 3% = $720 + $30 = $750
      // title $15 and lien $20 unsourced -> unknown; tax unknown. Total $750
      name: 'new car, MSRP $40,000, purchase with a lien',
      input: { transaction: 'new_lien', vehicle: { year: 2026, new: true, msrp: 40_000 }, sale: { price: 42_000 } },
      expect: {
        tax: { total: 0 },
        registration: { total: 750 },
        title: { total: 0 },
        total: 750,
        complete: false,
        unknown: [
          /^title: Certificate of title \(original\)/,
          /^title: Lien recording fee/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
    {
      // title $15 and lien $20 unsourced -> unknown
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
