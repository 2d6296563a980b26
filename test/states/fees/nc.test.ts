import { testStateFees } from '../../support/tester-fees.js';

// North Carolina golden cases. Figures from states/nc/fees.json and the pages it cites (read 2026-11-20):
//   highway use tax 3% of price less trade-in (G.S. 105-187.3):
//     https://www3.ncleg.gov/EnactedLegislation/Statutes/HTML/BySection/Chapter_105/GS_105-187.3.html ;
//   the $250 maximum is for new residents only ("not to exceed $250 for new residents moving to North Carolina"):
//     https://www.ncdot.gov/dmv/title-registration/vehicle/Pages/fees.aspx (also the $20 late fee after 28 days, EV fee $130);
//   title $66.75, lien $25.50, registration $46.25 (after the July 2025 adjustment): https://engineerfix.com/how-much-is-a-title-transfer-in-nc
testStateFees('NC', {
  goldens: [
    {
      // tax: 3% x $30,000 = $900.00; credit 3% x $5,000 = $150.00; tax $750.00 on $25,000 (no $250 cap: not a new resident)
      // registration $46.25; title $66.75 + lien $25.50 = $92.25; total $750 + $46.25 + $92.25 = $888.50
      name: '$30,000 purchase with a $5,000 trade-in and a new lien',
      input: { transaction: 'new_lien', vehicle: { year: 2023, title_state: 'NC' }, sale: { price: 30_000, trade_in: 5_000 } },
      expect: {
        tax: { taxable_amount: 25_000, total: 750 },
        registration: { total: 46.25 },
        title: { total: 92.25 },
        total: 888.5,
        complete: true,
      },
    },
    {
      // sale 2026-10-11, estimate 2026-11-20: 40 days > 28 -> $20 late fee
      // tax 3% x $10,000 = $300; registration $46.25 + EV fee $130 = $176.25; title $66.75 + $20 = $86.75
      // total $300 + $176.25 + $86.75 = $563.00
      name: 'electric car, $10,000 transfer filed 40 days after the sale',
      input: { transaction: 'transfer', vehicle: { year: 2021, fuel: 'electric', title_state: 'NC' }, sale: { price: 10_000, date: '2026-10-11' } },
      expect: {
        tax: { total: 300 },
        registration: { total: 176.25 },
        title: { total: 86.75 },
        total: 563,
        items: [{ section: 'title', feeType: 'LateFee', value: 20 }],
        complete: true,
      },
    },
  ],
});
