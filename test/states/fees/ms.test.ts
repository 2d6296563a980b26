import { testStateFees } from '../../support/tester-fees.js';

// Mississippi golden cases. Sourced: sales tax 5% and no local vehicle tax (Jackson County "Vehicle Registration").
// Unsourced: title $9, registration $14, privilege license $15, the trade-in credit; the duplicate and lien fees have no amount.
testStateFees('MS', {
  goldens: [
    {
      // duplicate: no amount, unsourced -> unknown
      name: "duplicate title",
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Duplicate title/],
      },
    },
    {
      // tax 5% x $20,000 = $1,000; title, registration and privilege license unsourced -> unknown; total $1,000
      name: "used MS car, $20,000, transfer without a lien",
      input: { transaction: 'transfer', vehicle: { year: 2020, weight_lbs: 3500, title_state: 'MS' }, sale: { price: 20_000 } },
      expect: {
        tax: { total: 1000 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 1000,
        items: [{ section: 'tax', feeType: 'StateTax', value: 1000 }],
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^registration: Registration fee \(\$/, /^registration: Privilege license/],
      },
    },
    {
      // tax 5% x $12,000 = $600; the trade-in credit is not confirmed -> unknown, not subtracted; taxable amount $12,000
      // total $600
      name: "used MS car, $12,000 with a $2,000 trade-in (the credit is unsourced)",
      input: { transaction: 'transfer', vehicle: { year: 2018, title_state: 'MS' }, sale: { price: 12_000, trade_in: 2_000 } },
      expect: {
        tax: { taxable_amount: 12000, total: 600 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 600,
        complete: false,
        unknown: [/^title: Certificate of title \(transfer\)/, /^registration: Registration fee \(\$/, /^registration: Privilege license/, /^tax: Trade-in credit/],
      },
    },
  ],
});
