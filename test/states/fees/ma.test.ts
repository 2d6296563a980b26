import { testStateFees } from '../../support/tester-fees.js';

// Massachusetts golden cases. Sourced: the 6.25% sales/use tax (MA DOR "Motor Vehicles"). Every figure of this state except the ones named below is unsourced (README): shown, left out of the totals, listed as unknown.
testStateFees('MA', {
  goldens: [
    {
      // duplicate: no amount, unsourced -> unknown
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
      // tax 6.25% x $20,000 = $1,250 (no book value given: the price is used); title $75 and registration $60 unsourced -> unknown
      // total $1,250
      name: 'used MA car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'MA' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1250 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 1250,
        items: [{ section: 'tax', feeType: 'StateTax', value: 1250 }],
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^registration: Registration fee \(\$/],
      },
    },
    {
      // title $75 unsourced, lien no amount -> unknown
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
