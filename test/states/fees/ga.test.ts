import { testStateFees } from '../../support/tester-fees.js';

// Georgia golden cases, from the official pages states/ga/fees.json and states/ga/local.json cite (read 2026-11-25):
//   White County Tax Commissioner, https://www.whitecountyga.gov/tax-commissioner/page/title-ad-valorem-tax :
//     TAVT = fair market value x 7%;
//   GA DOR TAVT FAQ, https://dor.georgia.gov/node/25891 : trade-in reduces the value on a dealer sale; used
//     vehicles are taxed on the DOR fair market value; TAVT vehicles are exempt from (state and local) sales tax;
//   GA DOR, http://motor.etax.dor.ga.gov/motor/registrationsection/rs_CostToRegister.aspx : title fee $18.00.
//   Habersham County Tag Office, http://www.habershamga.com/tagoffice_vehiclefees.cfm?lid=356 : tag fee $20 for cars,
//     duplicate (replacement) title $8.
// Unsourced: the late registration penalty.
testStateFees('GA', {
  goldens: [
    {
      // Fulton County dealer sale $25,000, $5,000 trade-in: TAVT 7% x $25,000 = $1,750.00, credit 7% x $5,000 = $350.00
      //   tax $1,400.00 on $20,000; local sales tax $0 (TAVT replaces it); title $18; tag fee $20; total $1,438.00
      name: 'Fulton County dealer sale: $25,000 with a $5,000 trade-in and a new lien',
      input: {
        county: 'Fulton',
        transaction: 'new_lien',
        vehicle: { year: 2025, title_state: 'GA', value: 25_000 },
        sale: { price: 25_000, trade_in: 5_000 },
      },
      expect: {
        tax: { taxable_amount: 20_000, total: 1_400 },
        title: { total: 18 },
        registration: { total: 20 },
        total: 1_438,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1_750 },
          { section: 'tax', feeType: 'TradeInCredit', value: 350 },
          { section: 'tax', feeType: 'LocalTax', value: 0 },
          { section: 'registration', feeType: 'RegistrationFee', value: 20 },
        ],
      },
    },
    {
      // Gwinnett private sale: TAVT on the $18,000 fair market value, not the $15,000 price: 7% x $18,000 = $1,260.00
      //   title $18; tag $20; total $1,298.00
      name: 'Gwinnett private sale: TAVT on the $18,000 fair market value',
      input: {
        county: 'Gwinnett',
        transaction: 'transfer',
        vehicle: { year: 2019, value: 18_000, title_state: 'GA' },
        sale: { price: 15_000 },
      },
      expect: {
        tax: { taxable_amount: 18_000, total: 1_260 },
        title: { total: 18 },
        registration: { total: 20 },
        total: 1_298,
      },
    },
    {
      // Cobb, $9,999.99 dealer sale: 7% x $9,999.99 = $699.9993 -> $700.00 (cents rounded half up); title $18; tag $20;
      //   total $738.00
      name: 'Cobb: $9,999.99 sale rounds the TAVT to the cent',
      input: {
        county: 'Cobb',
        transaction: 'transfer',
        vehicle: { title_state: 'GA', value: 9_999.99 },
        sale: { price: 9_999.99 },
      },
      expect: { tax: { total: 700 }, title: { total: 18 }, total: 738 },
    },
    {
      // duplicate title: $8 (Habersham County Tag Office fee page)
      name: 'duplicate title: $8',
      input: { transaction: 'duplicate' },
      expect: { total: 8, items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: 8 }] },
    },
  ],
});
