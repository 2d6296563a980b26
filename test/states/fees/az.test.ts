import { testStateFees } from '../../support/tester-fees.js';

// Arizona golden cases. Sourced (azdot.gov "Purchases from an out-of-state dealer"): original title $4, registration fee $8,
// air quality research fee $1.50; city and state use taxes collected at registration (azdot.gov/node/7464). Unsourced: the VLF,
// the transfer and duplicate title fees, the lien fee, the public safety fee, the 5.6% state rate.
testStateFees('AZ', {
  goldens: [
    {
      // duplicate $4 unsourced -> unknown
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
      // registration: VLF needs the MSRP (none given) -> unknown; registration fee $8 + air quality research $1.50 = $9.50;
      // public safety fee $32 unsourced -> unknown; title transfer $4 unsourced; tax unsourced; local: county not modelled
      // total $9.50
      name: 'used AZ car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'AZ' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 9.5 },
        title: { total: 0 },
        total: 9.5,
        complete: false,
        unknown: [
          /^title: Certificate of title \(transfer\)/,
          /^registration: Registration fee \(by value\)/,
          /^registration: Public safety fee/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
    {
      // title: original title $4 (sourced); lien fee has no amount -> unknown
      // registration: VLF needs the MSRP -> unknown; $8 + $1.50 = $9.50; public safety fee unknown; tax unsourced -> unknown
      // total $4 + $9.50 = $13.50
      name: 'new car, $30,000, purchase with a lien',
      input: { transaction: 'new_lien', vehicle: { year: 2026, new: true }, sale: { price: 30_000 } },
      expect: {
        tax: { total: 0 },
        registration: { total: 9.5 },
        title: { total: 4 },
        total: 13.5,
        items: [{ section: 'title', feeType: 'TitleFee', value: 4 }],
        complete: false,
        unknown: [
          /^title: Lien recording fee/,
          /^registration: Registration fee \(by value\)/,
          /^registration: Public safety fee/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
  ],
});
