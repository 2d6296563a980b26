import { testStateFees } from '../../support/tester-fees.js';

// New York golden cases. Figures from states/ny/fees.json and the pages it cites (read 2026-11-20):
//   sales tax 4% state: https://winenfood.com/ny-car-sales-tax-for-a-private-party-vehicle-sale ;
//   NYC 4.5% city + 0.375% MCTD = 4.875% local: https://visualfoodie.com/yearly-new-york-car-tax-and-fee-breakdown ;
//   two-year registration by weight (3,251-3,350 lbs $53.50; 3,551-3,650 lbs $59.00): http://www.dmv.ny.gov/regfee.htm ;
//   title certificate $50: https://dmv.ny.gov/node/3609 ; lien filing fee $5: https://dmv.ny.gov/titles/how-add-lienholder-title ;
//   Westchester county use tax $30 per year over 3,500 lbs ($60 per 2-year registration): 15 NYCRR 29.12
//     https://regulations.justia.com/states/new-york/title-15/chapter-i/subchapter-b/part-29/section-29-12/
testStateFees('NY', {
  goldens: [
    {
      // tax: 4% x $20,000 = $800.00; NYC (Kings) 4.875% x $20,000 = $975.00; tax $1,775.00 (8.875% combined)
      // registration: 3,300 lbs -> 3,251-3,350 lbs, 2-year fee $53.50 (plates, MCTD fee: optional, not included)
      // title: $50 title certificate + $5 lien filing fee = $55; total $1,775 + $53.50 + $55 = $1,883.50
      name: 'Kings County (NYC): $20,000 purchase with a new lien, 3,300 lbs',
      input: { county: 'Kings', transaction: 'new_lien', vehicle: { year: 2021, weight_lbs: 3_300, title_state: 'NY' }, sale: { price: 20_000 } },
      expect: {
        tax: { taxable_amount: 20_000, total: 1_775 },
        registration: { total: 53.5 },
        title: { total: 55 },
        total: 1_883.5,
        items: [{ section: 'tax', feeType: 'LocalTax', value: 975, county: 'New York City (Bronx, Kings, New York, Queens, Richmond)' }],
        complete: true,
      },
    },
    {
      // tax: 4% x $15,000 = $600.00; Westchester's local rate is not in the data -> unknown (at most 4.875% = $731.25)
      // registration: 3,600 lbs -> $59.00 + Westchester county use tax over 3,500 lbs $60 (2-year) = $119.00
      // title: $50 (no lien on a transfer); total $600 + $119 + $50 = $769.00 (lower bound)
      name: 'Westchester: $15,000 transfer, 3,600 lbs: county use tax added, local sales tax unknown',
      input: { county: 'Westchester', transaction: 'transfer', vehicle: { year: 2020, weight_lbs: 3_600, title_state: 'NY' }, sale: { price: 15_000 } },
      expect: {
        tax: { total: 600 },
        registration: { total: 119 },
        title: { total: 50 },
        total: 769,
        items: [{ section: 'registration', feeType: 'RegistrationAdditionalFee', name: /Westchester, over 3,500/, value: 60 }],
        unknown: [/^tax: Local sales tax/],
      },
    },
  ],
});
