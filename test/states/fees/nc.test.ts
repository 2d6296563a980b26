import { testStateFees } from '../../support/tester-fees.js';

// North Carolina golden cases, from the official pages states/nc/fees.json and states/nc/local.json cite:
//   G.S. 105-187.3, https://www3.ncleg.gov/EnactedLegislation/Statutes/HTML/BySection/Chapter_105/GS_105-187.3.html :
//     highway-use tax 3% of the value, less a dealer trade-in;
//   G.S. 20-85, https://ncleg.gov/EnactedLegislation/Statutes/HTML/BySection/Chapter_20/GS_20-85.html :
//     certificate of title $56.00, duplicate $21.50 (as stored on ncleg.gov);
//   NCDMV fees, https://www.ncdot.gov/dmv/title-registration/vehicle/Pages/fees.aspx : highway-use tax instead of sales
//     tax (no local tax), electric vehicle fee $130, late title penalty $20 after 28 days.
// Unsourced: the $46.25 registration fee and the $25.50 lien recording fee.
testStateFees('NC', {
  goldens: [
    {
      // Wake County, $30,000 purchase, $5,000 trade-in, new lien: HUT 3% x $30,000 = $900.00, credit $150.00 -> $750.00
      //   local $0; title $56; lien unsourced; registration unsourced; total $806.00
      name: 'Wake County: $30,000 purchase with a $5,000 trade-in and a new lien',
      input: {
        county: 'Wake',
        transaction: 'new_lien',
        vehicle: { title_state: 'NC' },
        sale: { price: 30_000, trade_in: 5_000 },
      },
      expect: {
        tax: { taxable_amount: 25_000, total: 750 },
        title: { total: 56 },
        total: 806,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 900 },
          { section: 'tax', feeType: 'LocalTax', value: 0 },
          { section: 'title', feeType: 'LienFee', value: null },
        ],
        complete: false,
      },
    },
    {
      // Mecklenburg, electric car, $10,000 transfer filed 40 days after the sale (2026-10-11 -> 2026-11-20):
      //   HUT 3% = $300.00; EV fee $130; title $56 + $20 late penalty = $76; total $506.00
      name: 'Mecklenburg: electric car, $10,000 transfer filed 40 days after the sale',
      input: {
        county: 'Mecklenburg',
        transaction: 'transfer',
        vehicle: { title_state: 'NC', fuel: 'electric' },
        sale: { price: 10_000, date: '2026-10-11' },
      },
      expect: {
        tax: { total: 300 },
        registration: { total: 130 },
        title: { total: 76 },
        total: 506,
        items: [{ section: 'title', feeType: 'LateFee', value: 20 }],
      },
    },
    {
      // duplicate title: $21.50
      name: 'duplicate title: $21.50',
      input: { county: 'Guilford', transaction: 'duplicate' },
      expect: { title: { total: 21.5 }, total: 21.5, complete: true },
    },
  ],
});
