import { testStateFees } from '../../support/tester-fees.js';

// Hawaii golden cases. Sourced (County of Hawaii "Motor Vehicles Fee Information"): duplicate $5, Hawaii County transfer $5,
// state weight tax 1.75 cents/lb up to 4,000 lbs, state registration fee $45, beautification $1, emblem $0.50, disposal $12.
// Unsourced: the 4% general excise tax, the statewide transfer fee, the lien fee; local surcharge: county not modelled.
testStateFees('HI', {
  goldens: [
    {
      // duplicate $5; nothing unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 5 },
        total: 5,
        complete: true,
        unknown: [],
      },
    },
    {
      // county Hawaii: transfer $5 (county figure)
      // registration: 3,500 lbs x 1.75 cents = $61.25 + $45 + $1 + $0.50 + $12 = $119.75 (county weight tax and county fee are optional: not included)
      // tax: 4% unsourced -> unknown; local: county not modelled
      // total $5 + $119.75 = $124.75
      name: 'used HI car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        county: 'Hawaii',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'HI' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 119.75 },
        title: { total: 5 },
        total: 124.75,
        items: [{ section: 'registration', feeType: 'RegistrationFee', value: 61.25 }],
        complete: false,
        unknown: [/^tax: State motor vehicle sales tax/, /^tax: Local sales tax \(county not modelled/],
      },
    },
    {
      // no county: statewide transfer $10 and lien fee unsourced -> unknown
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
