import { testStateFees } from '../../support/tester-fees.js';

// Pennsylvania golden cases. Figures from states/pa/fees.json and the pages it cites (read 2026-11-20):
//   6% + Allegheny 1% / Philadelphia 2%, trade-in reduces the price: https://legalclarity.org/how-is-pa-used-car-sales-tax-calculated ;
//   title $67, lien $34: https://winenfood.com/fees-for-a-pennsylvania-vehicle-certificate-of-title ;
//   passenger registration $45: https://visualfoodie.com/cost-of-a-pa-application-for-certificate-of-title
testStateFees('PA', {
  goldens: [
    {
      // tax: 6% x $25,000 = $1,500 + Philadelphia 2% x $25,000 = $500; trade-in credit (6% + 2%) x $5,000 = $400;
      //   tax $1,600.00 on $20,000
      // registration $45; title $67 + lien $34 = $101; total $1,600 + $45 + $101 = $1,746.00
      name: 'Philadelphia: $25,000 purchase with a new lien and a $5,000 trade-in',
      input: { county: 'Philadelphia', transaction: 'new_lien', vehicle: { title_state: 'PA' }, sale: { price: 25_000, trade_in: 5_000 } },
      expect: {
        tax: { taxable_amount: 20_000, total: 1_600 },
        registration: { total: 45 },
        title: { total: 101 },
        total: 1_746,
        items: [
          { section: 'tax', feeType: 'LocalTax', value: 500, county: 'Philadelphia' },
          { section: 'tax', feeType: 'TradeInCredit', value: 400 },
        ],
        complete: true,
      },
    },
    {
      // tax: 6% x $10,000 = $600 + Allegheny 1% = $100 -> $700; registration $45; title $67; total $812.00
      name: 'Allegheny: $10,000 transfer without a lien',
      input: { county: 'Allegheny County', transaction: 'transfer', vehicle: { title_state: 'PA' }, sale: { price: 10_000 } },
      expect: { tax: { total: 700 }, registration: { total: 45 }, title: { total: 67 }, total: 812, complete: true },
    },
    {
      // refinance: no tax, no registration; new title $67 + lien $34 = $101 (docs/fees.md: a refinance re-titles with the lien)
      name: 'refinance: title and lien fees only',
      input: { transaction: 'refinance', vehicle: { title_state: 'PA' } },
      expect: { tax: { total: 0 }, registration: { total: 0 }, title: { total: 101 }, total: 101, complete: true },
    },
  ],
});
