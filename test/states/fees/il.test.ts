import { testStateFees } from '../../support/tester-fees.js';

// Illinois golden cases, from the official pages states/il/fees.json and states/il/local.json cite (read 2026-11-25):
//   625 ILCS 5/3-821(a) (https://www.ilga.gov/legislation/ilcs/fulltext.asp?DocName=062500050K3-821):
//     Certificate of Title $165; Duplicate Certificate of Title $50;
//   Village of Antioch, Village Taxes (https://antioch.il.gov/departments/finance/village-taxes/): vehicle rate
//     (ST-556) 7.000% = State Rate 6.250% + Regional Transportation Authority 0.750%;
//   City of Naperville, Retail and Home Rule Sales Taxes
//     (https://www.naperville.il.us/government/city-finances/taxes-and-financial-forms/retail-sales-tax/, read 2026-11-26):
//     Vehicles: State of Illinois 7.00% (including the RTA's part), Naperville HRST 0.00%, total 7.00%;
//   tax.illinois.gov answer 33: local retailers' occupation taxes apply to dealer sales (by the dealer's location).
// Unsourced (shown, never counted): the RUT-50 private-sale table, the $151 registration fee, the lien fee.
//   86 Ill. Adm. Code 320.101(a) (https://witnessslips.ilga.gov/Commission/jcar/admincode/JCARTitlePart.asp?Part=0320&Title=086):
//     RTA retailers' occupation tax 1% of other taxable sales within Cook County; with the Chicago home rule 1.25% (the
//     Antioch page) the Chicago vehicle rate is 6.25% + 1.00% + 1.25% = 8.50%;
// Cook County's own use tax on titled vehicles (1%) is unsourced: shown, never counted.
testStateFees('IL', {
  goldens: [
    {
      // Cook County / Chicago, $30,000 dealer purchase: state 6.25% x $30,000 = $1,875.00; local part of the 8.50%
      //   Chicago vehicle rate (6.25% + RTA 1.00% + Chicago home rule 1.25%) = 2.25% x $30,000 = $675.00;
      //   tax $2,550.00; Cook County's own 1% use tax is unsourced ($300 shown, not counted); title $165;
      //   registration unsourced; total $2,715.00, incomplete
      name: 'Chicago: $30,000 purchase at the 8.50% vehicle rate, Cook County use tax shown, not counted',
      input: {
        county: 'Cook',
        city: 'Chicago',
        transaction: 'new_lien',
        vehicle: { title_state: 'IL', year: 2022 },
        sale: { price: 30_000 },
      },
      expect: {
        tax: { total: 2_550 },
        title: { total: 165 },
        total: 2_715,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1_875 },
          { section: 'tax', feeType: 'LocalTax', name: /Chicago, Cook County/, value: 675, county: 'Cook' },
          { section: 'tax', feeType: 'TaxFee', name: /Cook County home rule use tax/, value: null },
          { section: 'title', feeType: 'TitleFee', value: 165 },
          { section: 'registration', feeType: 'RegistrationFee', value: null },
        ],
        complete: false,
      },
    },
    {
      // ZIP 60614 -> Cook County by the Census 2010 ZCTA-to-county file (100% of the ZCTA's population); with the city,
      //   Chicago's 8.50%: local 2.25% x $10,000 = $225.00; state 6.25% = $625.00; tax $850.00
      name: 'ZIP 60614 finds Cook County; Chicago rate',
      input: { zip: '60614', city: 'Chicago', transaction: 'purchase', sale: { price: 10_000 } },
      expect: {
        tax: { total: 850 },
        items: [{ section: 'tax', feeType: 'LocalTax', name: /Chicago/, value: 225, county: 'Cook' }],
      },
    },
    {
      // Cook County outside Chicago (Evanston): no rate shipped for its dealers, so the local tax is unknown (never 0)
      name: 'Cook County, Evanston: local tax unknown',
      input: {
        county: 'Cook',
        city: 'Evanston',
        transaction: 'purchase',
        vehicle: { title_state: 'IL' },
        sale: { price: 10_000 },
      },
      expect: { tax: { total: 625 }, items: [{ section: 'tax', feeType: 'LocalTax', value: null }], complete: false },
    },
    {
      // Antioch (Lake County), $20,000 dealer purchase: state 6.25% = $1,250.00; local part 7.00% - 6.25% = 0.75% (RTA)
      //   x $20,000 = $150.00; tax $1,400.00; title $165; total $1,565.00
      name: 'Antioch, Lake County: $20,000 purchase at the 7.00% vehicle rate',
      input: {
        county: 'Lake',
        city: 'Antioch',
        transaction: 'purchase',
        vehicle: { title_state: 'IL' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1_400 },
        title: { total: 165 },
        total: 1_565,
        items: [{ section: 'tax', feeType: 'LocalTax', name: /Antioch, Lake County/, value: 150, county: 'Lake' }],
      },
    },
    {
      // Naperville (DuPage County), $20,000 dealer purchase: state 6.25% = $1,250.00; local part 7.00% - 6.25% = 0.75%
      //   x $20,000 = $150.00; tax $1,400.00; title $165; total $1,565.00
      name: 'Naperville, DuPage County: $20,000 purchase at the 7.00% vehicle rate',
      input: {
        county: 'DuPage',
        city: 'Naperville',
        transaction: 'purchase',
        vehicle: { title_state: 'IL' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1_400 },
        title: { total: 165 },
        total: 1_565,
        items: [
          { section: 'tax', feeType: 'LocalTax', name: /Naperville, DuPage County/, value: 150, county: 'DuPage' },
        ],
      },
    },
    {
      // ZIP 60540 (Naperville) -> DuPage County by the Census 2010 ZCTA-to-county file (100% of the ZCTA's population);
      //   with the city, the 7.00% Naperville rate: local 0.75% x $10,000 = $75.00
      name: 'ZIP 60540 finds DuPage County; Naperville rate',
      input: { zip: '60540', city: 'Naperville', transaction: 'purchase', sale: { price: 10_000 } },
      expect: {
        tax: { total: 700 },
        items: [{ section: 'tax', feeType: 'LocalTax', name: /Naperville/, value: 75, county: 'DuPage' }],
      },
    },
    {
      // DuPage County without a city: only Naperville's dealer rate is shipped, so the local tax is unknown (never 0)
      name: 'DuPage County, city not given: local tax unknown',
      input: { county: 'DuPage', transaction: 'purchase', vehicle: { title_state: 'IL' }, sale: { price: 20_000 } },
      expect: {
        tax: { total: 1_250 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: null }],
        complete: false,
      },
    },
    {
      // refinance: a new title $165 (the lien fee is not confirmed: unknown)
      name: 'refinance: title $165',
      input: { transaction: 'refinance', vehicle: { title_state: 'IL' } },
      expect: { total: 165, items: [{ section: 'title', feeType: 'TitleFee', value: 165 }], complete: false },
    },
    {
      // duplicate title: $50 (625 ILCS 5/3-821)
      name: 'duplicate title: $50',
      input: { transaction: 'duplicate' },
      expect: { total: 50, items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: 50 }] },
    },
  ],
});
