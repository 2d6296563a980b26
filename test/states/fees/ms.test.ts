import { testStateFees } from '../../support/tester-fees.js';

// Mississippi golden cases. Sourced: sales tax 5% and no local vehicle tax (Jackson County "Vehicle Registration").
// Title, replacement title and notice of security interest: $9.00 each (Miss. Code 63-21-63 as amended by HB 1151,
// 2010, on the Legislature's site). Unsourced: registration $14, privilege license $15, the trade-in credit.
testStateFees('MS', {
  goldens: [
    {
      // replacement title $9.00 (63-21-63(c)). Total $9.
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 9 },
        total: 9,
        items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: 9 }],
        complete: true,
        unknown: [],
      },
    },
    {
      // tax 5% x $20,000 = $1,000; title $9.00 (63-21-63(b)); registration and privilege license unsourced
      // -> unknown; total $1,009
      name: 'used MS car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'MS' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1000 },
        registration: { total: 0 },
        title: { total: 9 },
        total: 1009,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1000 },
          { section: 'title', feeType: 'TitleFee', value: 9 },
        ],
        complete: false,
        unknown: [/^registration: Registration fee \(\$/, /^registration: Privilege license/],
      },
    },
    {
      // tax 5% x $12,000 = $600; the trade-in credit is not confirmed -> unknown, not subtracted; taxable amount $12,000
      // title $9.00 (63-21-63(b)); total $609
      name: 'used MS car, $12,000 with a $2,000 trade-in (the credit is unsourced)',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2018, title_state: 'MS' },
        sale: { price: 12_000, trade_in: 2_000 },
      },
      expect: {
        tax: { taxable_amount: 12000, total: 600 },
        registration: { total: 0 },
        title: { total: 9 },
        total: 609,
        complete: false,
        unknown: [/^registration: Registration fee \(\$/, /^registration: Privilege license/, /^tax: Trade-in credit/],
      },
    },
  ],
});
