import { testStateFees } from '../../support/tester-fees.js';

// Georgia golden cases. Figures from states/ga/fees.json and the pages it cites (read 2026-11-20):
//   title ad valorem tax (TAVT) 7%; dealer sale: price less trade-in; private sale: DOR fair market value:
//     https://engineerfix.com/how-much-are-tag-and-title-fees-in-ga ;
//   title $18, tag $20: http://telfaircountytax.com/motor-vehicles/ ; lien fee not sourced.
testStateFees('GA', {
  goldens: [
    {
      // TAVT on a dealer sale: 7% x $25,000 = $1,750.00; trade-in credit 7% x $5,000 = $350.00; TAVT $1,400.00 on $20,000
      //   (no fair market value given: the price stands in, stated in metadata.assumptions)
      // registration $20; title $18 + lien (unsourced, unknown); total $1,400 + $20 + $18 = $1,438.00 (lower bound)
      name: 'dealer sale: $25,000 with a $5,000 trade-in and a new lien',
      input: { transaction: 'new_lien', vehicle: { year: 2025, title_state: 'GA' }, sale: { price: 25_000, trade_in: 5_000 } },
      expect: {
        tax: { taxable_amount: 20_000, total: 1_400 },
        registration: { total: 20 },
        title: { total: 18 },
        total: 1_438,
        unknown: [/^title: Lien recording fee/],
      },
    },
    {
      // private sale: TAVT on the fair market value, not the price: 7% x $18,000 = $1,260.00
      // registration $20; title $18; total $1,298.00
      name: 'private sale: TAVT on the $18,000 fair market value, not the $15,000 price',
      input: { transaction: 'transfer', vehicle: { year: 2019, value: 18_000, title_state: 'GA' }, sale: { price: 15_000 } },
      expect: { tax: { taxable_amount: 18_000, total: 1_260 }, registration: { total: 20 }, title: { total: 18 }, total: 1_298, complete: true },
    },
  ],
});
