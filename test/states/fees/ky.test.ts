import { testStateFees } from '../../support/tester-fees.js';

// Kentucky golden cases. Sourced: usage tax 6% (KY Department of Revenue "Motor Vehicle Usage Tax"); the trade-in allowance on
// used vehicles and no local tax (Boyle County Clerk "Usage Tax"); title application $9, duplicate title $6, title lien
// statement $22 and registration $21 (Jefferson County Clerk "Motor Vehicle Fees"). Unsourced: title $17 transfer, county
// clerk fee $6.
testStateFees('KY', {
  goldens: [
    {
      // duplicate title $6 (Jefferson County Clerk: "Duplicate Title Fee: $6"); county clerk fee $6 unsourced -> unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 6 },
        total: 6,
        items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: 6 }],
        complete: false,
        unknown: [/^title: County clerk fee/],
      },
    },
    {
      // tax: 6% x $20,000 = $1,200 (no value given: the price is the retail price)
      // registration $21 (Jefferson County Clerk); title $17 transfer and clerk fee unsourced -> unknown; total $1,221
      name: 'used KY car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'KY' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1200 },
        registration: { total: 21 },
        title: { total: 0 },
        total: 1221,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1200 },
          { section: 'registration', feeType: 'RegistrationFee', value: 21 },
        ],
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^title: County clerk fee/],
      },
    },
    {
      // tax: 6% x $15,000 = $900, trade-in credit 6% x $5,000 = $300 -> $600 on $10,000
      // registration $21; title and clerk fee unknown; total $621
      name: 'used KY car, $15,000 with a $5,000 trade-in',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2019, title_state: 'KY' },
        sale: { price: 15_000, trade_in: 5_000 },
      },
      expect: {
        tax: { taxable_amount: 10000, total: 600 },
        registration: { total: 21 },
        title: { total: 0 },
        total: 621,
        items: [
          { section: 'tax', feeType: 'TradeInCredit', value: 300 },
          { section: 'tax', feeType: 'StateTax', value: 900 },
        ],
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^title: County clerk fee/],
      },
    },
  ],
});
