import { testStateFees } from '../../support/tester-fees.js';

// District of Columbia golden cases. Every figure is from DC DMV pages: title $26, duplicate $26, lien $20, excise tax 4.1%
// (no trade-in credit) (dmv.dc.gov/node/155502); registration by weight $72 (up to 3,499 lbs) / $175 (3,500-4,999 lbs) (dmv.dc.gov/node/155452).
testStateFees('DC', {
  goldens: [
    {
      // duplicate $26; nothing unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 26 },
        total: 26,
        complete: true,
        unknown: [],
      },
    },
    {
      // 3,500 lbs: registration $175; tax 4.1% x $20,000 (no value given: the price stands in) = $820; title $26
      // total $820 + $175 + $26 = $1,021
      name: 'used DC car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'DC' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 820 },
        registration: { total: 175 },
        title: { total: 26 },
        total: 1021,
        complete: true,
        unknown: [],
      },
    },
    {
      // tax on the value: 4.1% x $30,000 = $1,230; DC gives no trade-in credit
      // registration: 3,200 lbs -> $72; title $26 + lien $20 = $46
      // total $1,230 + $72 + $46 = $1,348
      name: 'new car, 3,200 lbs, value $30,000, purchase with a lien and a $5,000 trade-in',
      input: {
        transaction: 'new_lien',
        vehicle: { year: 2026, new: true, weight_lbs: 3200, value: 30_000 },
        sale: { price: 31_000, trade_in: 5_000 },
      },
      expect: {
        tax: { taxable_amount: 30000, total: 1230 },
        registration: { total: 72 },
        title: { total: 46 },
        total: 1348,
        complete: true,
        unknown: [],
      },
    },
  ],
});
