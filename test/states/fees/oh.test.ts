import { testStateFees } from '../../support/tester-fees.js';

// Ohio golden cases. Figures from states/oh/fees.json and the pages it cites (read 2026-11-20):
//   state 5.75% (ORC 5739.02): https://legalclarity.org/how-much-are-car-taxes-and-fees-in-ohio ;
//   Franklin +1.75% (7.50%), Cuyahoga +2.25% (8.00%): https://winenfood.com/the-cost-of-new-car-registration-in-ohio ;
//   title $18 from 2026-01-01, lien noted with the title at no extra cost: https://belmontcountycoc.org/title-fees ;
//   $5 late title fee after 30 days (ORC 4505.09(A)(1)(a)); registration $31 and EV fee $200 (ORC 4503.02):
//     https://legalclarity.org/how-much-is-title-and-registration-in-ohio
testStateFees('OH', {
  goldens: [
    {
      // new car from a dealer, so the trade-in counts (ORC 5739.01):
      // tax: 5.75% x $20,000 = $1,150 + Franklin 1.75% x $20,000 = $350; credit (5.75% + 1.75%) x $4,000 = $300;
      //   tax $1,200.00 on $16,000
      // registration $31; title $18 with the lien noted in the same transaction ($0); total $1,200 + $31 + $18 = $1,249.00
      name: 'Franklin County: new $20,000 car with a $4,000 trade-in and a new lien',
      input: { county: 'Franklin', transaction: 'new_lien', vehicle: { year: 2026, new: true }, sale: { price: 20_000, trade_in: 4_000 } },
      expect: {
        tax: { taxable_amount: 16_000, total: 1_200 },
        registration: { total: 31 },
        title: { total: 18 },
        total: 1_249,
        items: [{ section: 'title', feeType: 'LienFee', value: 0 }],
        complete: true,
      },
    },
    {
      // sale 2026-10-06, estimate 2026-11-20: 45 days > 30 -> $5 late title fee
      // tax: 5.75% x $8,000 = $460 + Cuyahoga 2.25% x $8,000 = $180 -> $640
      // registration $31 + battery-electric fee $200 = $231; title $18 + $5 = $23; total $640 + $231 + $23 = $894.00
      name: 'Cuyahoga: $8,000 electric car, title filed 45 days after the sale',
      input: { county: 'Cuyahoga', transaction: 'transfer', vehicle: { year: 2020, fuel: 'electric', title_state: 'OH' }, sale: { price: 8_000, date: '2026-10-06' } },
      expect: {
        tax: { total: 640 },
        registration: { total: 231 },
        title: { total: 23 },
        total: 894,
        items: [
          { section: 'registration', feeType: 'RegistrationAdditionalFee', name: /^Electric vehicle/, value: 200 },
          { section: 'title', feeType: 'LateFee', value: 5 },
        ],
        complete: true,
      },
    },
  ],
});
