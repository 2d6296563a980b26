import { testStateFees } from '../../support/tester-fees.js';

// Illinois golden cases. Figures from states/il/fees.json and the pages it cites (read 2026-11-20):
//   title $165, duplicate $50: 625 ILCS 5/3-821(a) (statute text, d1tvxue8o4w0fl.cloudfront.net copy);
//   registration $151: https://legalclarity.org/illinois-license-plates-costs-criteria-and-compliance ;
//   6.25% state rate on dealer sales: https://engineerfix.com/how-much-is-tax-title-and-license-in-illinois ;
//   trade-in credit capped at $10,000 for passenger cars: https://staging.rundeautogroup.com/about-us/il-sales-tax-credit-cap ;
//   local retailers' occupation taxes apply (rates not in the data); lien fee not sourced.
testStateFees('IL', {
  goldens: [
    {
      // tax: 6.25% x $30,000 = $1,875.00; the $15,000 trade-in is credited up to $10,000: 6.25% x $10,000 = $625.00;
      //   state tax $1,250.00 on $20,000; local tax unknown
      // registration $151; title $165 + lien (unsourced, unknown); total $1,250 + $151 + $165 = $1,566.00 (lower bound)
      name: 'dealer purchase $30,000 with a $15,000 trade-in (capped at $10,000) and a new lien',
      input: { county: 'Cook', transaction: 'new_lien', vehicle: { year: 2024, title_state: 'IL' }, sale: { price: 30_000, trade_in: 15_000 } },
      expect: {
        tax: { taxable_amount: 20_000, total: 1_250 },
        registration: { total: 151 },
        title: { total: 165 },
        total: 1_566,
        items: [
          { section: 'tax', feeType: 'TradeInCredit', value: 625 },
          { section: 'title', feeType: 'LienFee', value: null },
          { section: 'tax', feeType: 'LocalTax', value: null },
        ],
        complete: false,
        unknown: [/^title: Lien recording fee/, /^tax: Local sales tax/],
      },
    },
    {
      // duplicate title $50 (3-821(a)); nothing else
      name: 'duplicate title: $50',
      input: { transaction: 'duplicate' },
      expect: { tax: { total: 0 }, registration: { total: 0 }, title: { total: 50 }, total: 50, complete: true },
    },
  ],
});
