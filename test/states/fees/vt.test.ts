import { testStateFees } from '../../support/tester-fees.js';

// Vermont golden cases. Sourced (Vermont DMV "Vehicle Taxation"): purchase and use tax 6% of the greater of the price and the
// book value, less a trade-in; no local tax. Unsourced: title $35, lien $11, registration $91; the duplicate fee has no amount.
testStateFees('VT', {
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
      // tax 6% x $20,000 = $1,200 (no book value given: the price is used); title and registration unsourced -> unknown; total $1,200
      name: 'used VT car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'VT' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1200 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 1200,
        items: [{ section: 'tax', feeType: 'StateTax', value: 1200 }],
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^registration: Registration fee \(\$/],
      },
    },
    {
      // tax on the greater amount: 6% x $24,000 = $1,440; trade-in credit 6% x $4,000 = $240 -> $1,200 on $20,000
      // total $1,200
      name: 'used VT car: price $20,000, book value $24,000, $4,000 trade-in',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2021, value: 24_000, title_state: 'VT' },
        sale: { price: 20_000, trade_in: 4_000 },
      },
      expect: {
        tax: { taxable_amount: 20000, total: 1200 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 1200,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1440 },
          { section: 'tax', feeType: 'TradeInCredit', value: 240 },
        ],
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^registration: Registration fee \(\$/],
      },
    },
  ],
});
