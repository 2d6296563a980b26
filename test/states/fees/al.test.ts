import { testStateFees } from '../../support/tester-fees.js';

// Alabama golden cases. Sourced: title, duplicate and lien fees $15 each (ALDOR "Motor Vehicle Certificate of Title Fee");
// state automotive sales tax 2% and local taxes due on top (ALDOR "Casual Sales Tax", Code of Ala. 40-23-100 ff.).
// Unsourced (unknown, not in totals): designated agent fee $1.50, county commission fee $1.50, registration $23, trade-in credit.
testStateFees('AL', {
  goldens: [
    {
      // duplicate $15 (sourced); agent and commission fees unsourced -> unknown; title total $15
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 15 },
        total: 15,
        items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: 15 }],
        complete: false,
        unknown: [/^title: Designated agent fee/, /^title: County commission fee/],
      },
    },
    {
      // tax: 2% x $20,000 = $400; local tax: county not modelled -> unknown
      // title: transfer $15; agent/commission unknown; registration $23 unsourced -> unknown
      // total: $400 + $15 = $415
      name: 'used AL car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'AL' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 400 },
        registration: { total: 0 },
        title: { total: 15 },
        total: 415,
        items: [{ section: 'tax', feeType: 'StateTax', value: 400 }],
        complete: false,
        unknown: [
          /^title: Designated agent fee/,
          /^title: County commission fee/,
          /^registration: Registration fee \(\$/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
    {
      // tax: 2% x $10,000 = $200; the trade-in credit is not confirmed by an official page -> shown as unknown, not subtracted,
      // so the taxable amount stays $10,000
      // title: transfer $15 + lien $15 = $30; total $230
      name: 'purchase with a lien, $10,000 and a $2,000 trade-in (the credit is unsourced)',
      input: { transaction: 'new_lien', vehicle: { title_state: 'AL' }, sale: { price: 10_000, trade_in: 2_000 } },
      expect: {
        tax: { taxable_amount: 10000, total: 200 },
        registration: { total: 0 },
        title: { total: 30 },
        total: 230,
        items: [{ section: 'tax', feeType: 'TradeInCredit', value: null }],
        complete: false,
        unknown: [
          /^title: Designated agent fee/,
          /^title: County commission fee/,
          /^registration: Registration fee \(\$/,
          /^tax: Trade-in credit/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
  ],
});
