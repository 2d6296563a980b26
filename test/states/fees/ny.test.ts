import { testStateFees } from '../../support/tester-fees.js';

// New York golden cases, from the official pages states/ny/fees.json cites (read 2026-11-20 and 2026-11-25):
//   NYS Tax Department, https://tax.ny.gov/bus/st/rates.htm : state rate 4% plus local rates;
//   NYC311 "Sales Tax", https://www1.nyc.gov/nyc-resources/service/2389/sales-tax : total rate in New York City 8.875%
//     (city 4.5% + state 4% + MCTD 0.375%), so the local part in Kings, Queens, New York, Bronx, Richmond is 4.875%;
//   DMV "Passenger vehicle registration fees", http://www.dmv.ny.gov/regfee.htm : 2-year fee by weight
//     (3,251-3,350 lbs $53.50; 3,551-3,650 lbs $59.00), title certificate fee $50.00;
//   DMV "How to add a lienholder": $5 to record a lien.
// Unsourced: the duplicate title fee, county use taxes, the MCTD fee, whether a trade-in reduces the tax.
testStateFees('NY', {
  goldens: [
    {
      // Kings County (NYC), $20,000 purchase, 3,300 lbs, new lien:
      //   state 4% x $20,000 = $800.00; local 4.875% x $20,000 = $975.00; tax $1,775.00
      //   registration: 3,251-3,350 lbs -> $53.50; title $50 + lien $5 = $55; total $1,883.50
      name: 'Kings County: $20,000 purchase with a new lien, 3,300 lbs',
      input: {
        county: 'Kings',
        transaction: 'new_lien',
        vehicle: { title_state: 'NY', weight_lbs: 3_300 },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1_775 },
        registration: { total: 53.5 },
        title: { total: 55 },
        total: 1_883.5,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 800 },
          { section: 'tax', feeType: 'LocalTax', value: 975, county: 'Kings' },
          { section: 'registration', feeType: 'RegistrationFee', value: 53.5 },
          { section: 'title', feeType: 'LienFee', value: 5 },
        ],
        complete: true,
      },
    },
    {
      // Albany County, $15,000 transfer, 3,600 lbs: 4% x $15,000 = $600.00; registration 3,551-3,650 lbs $59.00;
      //   title $50; total $709.00 (the local rate is unknown)
      name: 'Albany County: $15,000 transfer, 3,600 lbs',
      input: {
        county: 'Albany',
        transaction: 'transfer',
        vehicle: { title_state: 'NY', weight_lbs: 3_600 },
        sale: { price: 15_000 },
      },
      expect: { tax: { total: 600 }, registration: { total: 59 }, title: { total: 50 }, total: 709 },
    },
    {
      // Queens County (NYC), $30,000 transfer, 3,600 lbs:
      //   state 4% x $30,000 = $1,200.00; local 4.875% x $30,000 = $1,462.50; tax $2,662.50
      //   registration 3,551-3,650 lbs $59.00; title $50; total $2,771.50
      name: 'Queens County: $30,000 transfer, 3,600 lbs',
      input: {
        county: 'Queens',
        transaction: 'transfer',
        vehicle: { title_state: 'NY', weight_lbs: 3_600 },
        sale: { price: 30_000 },
      },
      expect: {
        tax: { total: 2_662.5 },
        total: 2_771.5,
        items: [{ section: 'tax', feeType: 'LocalTax', value: 1_462.5, county: 'Queens' }],
      },
    },
    {
      // New York County (Manhattan), $12,345.67 transfer: state 4% = $493.8268 -> $493.83;
      //   local 4.875% = $601.851413 -> $601.85; tax $1,095.68
      name: 'New York County: $12,345.67 transfer, per-item rounding',
      input: {
        county: 'New York',
        transaction: 'transfer',
        vehicle: { title_state: 'NY', weight_lbs: 3_600 },
        sale: { price: 12_345.67 },
      },
      expect: {
        tax: { total: 1_095.68 },
        items: [
          { section: 'tax', feeType: 'StateTax', value: 493.83 },
          { section: 'tax', feeType: 'LocalTax', value: 601.85, county: 'New York' },
        ],
      },
    },
    {
      // ZIP 11215 (no county given): the Census 2010 ZCTA-to-county file puts 100% of ZCTA 11215 in Kings County
      //   (states/ny/local.json zip_table), so Kings' 4.875% applies: $10,000 x 4.875% = $487.50; state 4% = $400.00
      name: 'ZIP 11215 finds Kings County (Census ZCTA file): $10,000 transfer',
      input: {
        zip: '11215',
        transaction: 'transfer',
        vehicle: { title_state: 'NY', weight_lbs: 3_300 },
        sale: { price: 10_000 },
      },
      expect: {
        tax: { total: 887.5 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: 487.5, county: 'Kings' }],
      },
    },
    {
      // refinance: title $50 + lien $5 = $55; no tax, no registration
      name: 'refinance: title and lien fees',
      input: { transaction: 'refinance', vehicle: { title_state: 'NY' } },
      expect: { tax: { total: 0 }, registration: { total: 0 }, title: { total: 55 }, total: 55, complete: true },
    },
  ],
});
