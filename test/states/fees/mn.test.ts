import { testStateFees } from '../../support/tester-fees.js';

// Minnesota golden cases. Sourced: title $8.25 and lien $2 and the $2 late-transfer penalty after 10 days (DPS DVS "Title/Transfer Fees");
// motor vehicle sales tax 6.875% on the price less the trade-in, no local sales tax (MN Revenue "Motor Vehicle Sales").
// Unsourced: technology surcharge $2.25, PSV fee $3.50, filing fee $11, the registration tax; the duplicate fee has no amount.
testStateFees('MN', {
  goldens: [
    {
      // duplicate (no amount), technology surcharge, PSV fee, filing fee: unsourced -> unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [
          /^title: Duplicate title/,
          /^title: Title technology surcharge/,
          /^title: Public safety vehicle/,
          /^title: State\/deputy filing fee/,
        ],
      },
    },
    {
      // tax 6.875% x $20,000 = $1,375; title $8.25; registration tax needs the MSRP -> unknown; surcharges unsourced
      // total $1,375 + $8.25 = $1,383.25
      name: 'used MN car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'MN' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1375 },
        registration: { total: 0 },
        title: { total: 8.25 },
        total: 1383.25,
        complete: false,
        unknown: [
          /^title: Title technology surcharge/,
          /^title: Public safety vehicle/,
          /^title: State\/deputy filing fee/,
          /^registration: Registration fee \(by value\)/,
        ],
      },
    },
    {
      // tax: 6.875% x $25,000 = $1,718.75, credit 6.875% x $5,000 = $343.75 -> $1,375 on $20,000
      // title $8.25 + late transfer penalty $2 (19 days > 10) = $10.25
      // total $1,375 + $10.25 = $1,385.25
      name: 'used MN car, $25,000 with a $5,000 trade-in, sold 19 days ago',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2019, title_state: 'MN' },
        sale: { price: 25_000, trade_in: 5_000, date: '2026-11-01' },
      },
      expect: {
        tax: { taxable_amount: 20000, total: 1375 },
        registration: { total: 0 },
        title: { total: 10.25 },
        total: 1385.25,
        items: [
          { section: 'tax', feeType: 'TradeInCredit', value: 343.75 },
          { section: 'title', feeType: 'LateFee', value: 2 },
        ],
        complete: false,
        unknown: [
          /^title: Title technology surcharge/,
          /^title: Public safety vehicle/,
          /^title: State\/deputy filing fee/,
          /^registration: Registration fee \(by value\)/,
        ],
      },
    },
  ],
});
