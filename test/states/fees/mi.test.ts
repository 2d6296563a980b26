import { testStateFees } from '../../support/tester-fees.js';

// Michigan golden cases. Figures from states/mi/fees.json and the pages it cites (read 2026-11-20):
//   6% use tax, no local tax: https://engineerfix.com/how-much-does-it-cost-to-transfer-a-title-in-michigan ;
//   trade-in credit cap $5,000 in 2019 + $1,000 a year -> $12,000 in 2026: Department of State FAQ copy
//     https://hotpinkbraces.com/buying-a-car-as-a-tax-write-off-9590 ;
//   registration on the original MSRP: over $30,000, $178 + $6 per $1,000 or fraction above $30,000; renewals 1-3 are
//     90% of the previous year (MCL 257.801): https://costcalculator.calculator.city/?p=13968 ; table up to $30,000 not sourced;
//   title $15: https://engineerfix.com/how-much-does-it-cost-to-transfer-a-title-in-michigan ; lien fee not sourced.
testStateFees('MI', {
  goldens: [
    {
      // tax: 6% x $38,000 = $2,280.00; trade-in $15,000 credited up to $12,000: 6% x $12,000 = $720.00; tax $1,560.00 on $26,000
      // registration: MSRP $40,000: $10,000 above $30,000 = 10 steps of $1,000: $178 + 10 x $6 = $238.00 (first year, 100%)
      // title: original $15 + lien (unsourced, unknown); total $1,560 + $238 + $15 = $1,813.00 (lower bound)
      name: 'new car, MSRP $40,000, bought for $38,000 with a $15,000 trade-in and a new lien',
      input: { transaction: 'new_lien', vehicle: { year: 2026, new: true, msrp: 40_000 }, sale: { price: 38_000, trade_in: 15_000 } },
      expect: {
        tax: { taxable_amount: 26_000, total: 1_560 },
        registration: { total: 238 },
        title: { total: 15 },
        total: 1_813,
        items: [{ section: 'tax', feeType: 'TradeInCredit', value: 720 }],
        unknown: [/^title: Lien recording fee/],
      },
    },
    {
      // registration: MSRP $45,500: $15,500 above $30,000 = 16 started steps: $178 + 16 x $6 = $274; model year 2023 in 2026 is
      //   the third renewal: 90% x 90% x 90% = 72.9% of $274 = $199.746 -> $199.75
      // tax 6% x $22,000 = $1,320; title transfer $15; total $1,320 + $199.75 + $15 = $1,534.75
      name: 'three-year-old car, MSRP $45,500, $22,000 transfer: registration at 72.9%',
      input: { transaction: 'transfer', vehicle: { year: 2023, msrp: 45_500, title_state: 'MI' }, sale: { price: 22_000 } },
      expect: { tax: { total: 1_320 }, registration: { total: 199.75 }, title: { total: 15 }, total: 1_534.75, complete: true },
    },
    {
      // MSRP $25,000: the SOS table up to $30,000 is not in the data; the vehicle's last registration ($148, fee history)
      //   stands in (an assumption the estimate states); tax 6% x $12,000 = $720; title $15; total $883.00
      name: 'MSRP under $30,000: the fee history stands in for the unsourced table',
      input: {
        transaction: 'transfer', vehicle: { year: 2022, msrp: 25_000, title_state: 'MI' }, sale: { price: 12_000 },
        fee_history: [{ feeType: 'RegistrationFee', name: 'Registration renewal', value: 148, last_updated: '2025-08-01' }],
      },
      expect: { tax: { total: 720 }, registration: { total: 148 }, title: { total: 15 }, total: 883, complete: true },
    },
  ],
});
