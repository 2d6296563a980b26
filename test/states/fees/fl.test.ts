import { testStateFees } from '../../support/tester-fees.js';

// Florida golden cases. Figures from states/fl/fees.json and the pages it cites (read 2026-11-20):
//   6% on the price less trade-in: https://www.vctaxcollector.org/motorist-services/calculating-tax.html ,
//     https://www.leetc.com/vehicles-vessels/application-documentation-and-instructions/sales-use-tax ;
//   county surtax on the first $5,000: Volusia 0.5% (vctaxcollector), Hillsborough 1.5%
//     (https://hillstax2025.cbmstage.com/title-tag/title/calculating-sales-tax: "$5,000 x .015 = $75");
//   title $77.75 (MCO) / $75.75 (FL title): https://www.hillstax.org/title-tag/payment-fees/ ; lien $2: visualfoodie.com;
//   registration by net weight $27.60 / $35.60 / $45.60: https://floridalicenseplate.org/vehicle-registration-fees
testStateFees('FL', {
  goldens: [
    {
      // tax: 6% x $25,000 = $1,500.00; trade-in credit 6% x $5,000 = $300.00; Hillsborough surtax 1.5% x $5,000 = $75.00
      //   (the first $5,000 of both $25,000 and $20,000, so the trade-in does not change it): tax $1,275.00 on $20,000
      // registration: 3,200 lbs -> 2,500-3,499 lbs $35.60 (the $225 initial-registration and plate fees are optional: not included)
      // title: Florida title transfer $75.75 + lien $2 = $77.75; total $1,275.00 + $35.60 + $77.75 = $1,388.35
      name: 'Hillsborough: $25,000 purchase with a new lien and a $5,000 trade-in, 3,200 lbs',
      input: { county: 'Hillsborough', transaction: 'new_lien', vehicle: { year: 2021, weight_lbs: 3_200, title_state: 'FL' }, sale: { price: 25_000, trade_in: 5_000 } },
      expect: {
        tax: { taxable_amount: 20_000, total: 1_275 },
        registration: { total: 35.6 },
        title: { total: 77.75 },
        total: 1_388.35,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1_500 },
          { section: 'tax', feeType: 'LocalTax', value: 75, county: 'Hillsborough' },
          { section: 'tax', feeType: 'TradeInCredit', value: 300 },
          { section: 'title', feeType: 'LienFee', value: 2 },
        ],
        complete: true,
      },
    },
    {
      // tax: 6% x $30,000 = $1,800.00 + Volusia 0.5% x $5,000 = $25.00 -> $1,825.00
      // registration: 3,600 lbs -> 3,500+ lbs $45.60; title: new vehicle (MCO) $77.75, no lien on a cash transfer
      // total $1,825.00 + $45.60 + $77.75 = $1,948.35
      name: 'Volusia: new 3,600 lbs car bought for $30,000 without a lien',
      input: { county: 'Volusia', transaction: 'transfer', vehicle: { year: 2026, new: true, weight_lbs: 3_600 }, sale: { price: 30_000 } },
      expect: { tax: { total: 1_825 }, registration: { total: 45.6 }, title: { total: 77.75 }, total: 1_948.35, complete: true },
    },
    {
      // a county whose surtax rate is not in the data: the surtax shows as unknown; 6% x $10,000 = $600.00 known
      name: 'a county without a sourced surtax rate: the surtax is unknown, not 0',
      input: { county: 'Orange', transaction: 'transfer', vehicle: { weight_lbs: 2_400, title_state: 'FL' }, sale: { price: 10_000 } },
      expect: {
        tax: { total: 600 },
        registration: { total: 27.6 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: null, county: 'Orange' }],
        unknown: [/^tax: Local sales tax \(no local rate for Orange/],
      },
    },
  ],
});
