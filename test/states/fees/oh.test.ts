import { testStateFees } from '../../support/tester-fees.js';

// Ohio golden cases, from the official pages states/oh/fees.json and states/oh/local.json cite (read 2026-11-25):
//   Ohio Department of Taxation, http://www.tax.ohio.gov/legal/SalesTaxRateIncrease.aspx : state rate 5.75%;
//   Ohio Department of Taxation bulletin, https://content.govdelivery.com/accounts/OHTAX/bulletins/3c678f3 :
//     Franklin County total rate 8% from April 1, 2025 (local part 8% - 5.75% = 2.25%);
//   Hamilton County, https://hamilton-co.org/cms/One.aspx?portalId=3788280&pageId=5315916 : county 0.5% + 0.75%,
//     transit authority 0.8% (local part 2.05%, total 7.80%) as of October 2020;
//   Franklin County Clerk of Courts fee schedule, https://clerk.franklincountyohio.gov/autoTitle/titleFeesMV :
//     original title $15.00, duplicate $15.00, late fee $5.00;
//   Franklin County Clerk of Courts: Auto Title South, 45 Great Southern Blvd., Columbus, Ohio 43207 (ZIP -> Franklin).
// Unsourced: the $31 registration, the EV/hybrid fees, the trade-in rule, the $0 lien notation.
testStateFees('OH', {
  goldens: [
    {
      // ZIP 43207 -> Franklin County, $20,000 purchase with a $4,000 trade-in and a new lien:
      //   state 5.75% x $20,000 = $1,150.00; local 2.25% x $20,000 = $450.00; trade-in rule unsourced: not credited
      //   tax $1,600.00; title $15 (lien notation unsourced -> unknown); registration unsourced -> $0; total $1,615.00
      name: 'Franklin County (ZIP 43207): $20,000 purchase with a new lien',
      input: {
        zip: '43207',
        city: 'Columbus',
        transaction: 'new_lien',
        vehicle: { title_state: 'OH' },
        sale: { price: 20_000, trade_in: 4_000 },
      },
      expect: {
        tax: { total: 1_600 },
        title: { total: 15 },
        total: 1_615,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1_150 },
          { section: 'tax', feeType: 'LocalTax', value: 450, county: 'Franklin' },
          { section: 'tax', feeType: 'TradeInCredit', value: null },
          { section: 'title', feeType: 'TitleFee', value: 15 },
        ],
        complete: false,
      },
    },
    {
      // Cuyahoga, $8,000 transfer, title applied for 45 days after the sale:
      //   state 5.75% x $8,000 = $460.00; Cuyahoga's rate not read from an official page: unknown
      //   title $15 + $5 late fee (more than 30 days) = $20; total $480.00
      name: 'Cuyahoga: $8,000 transfer 45 days after the sale',
      input: {
        county: 'Cuyahoga',
        transaction: 'transfer',
        vehicle: { title_state: 'OH' },
        sale: { price: 8_000, date: '2026-10-06' },
      },
      expect: {
        tax: { total: 460 },
        title: { total: 20 },
        total: 480,
        items: [
          { section: 'tax', feeType: 'LocalTax', value: null, county: 'Cuyahoga' },
          { section: 'title', feeType: 'LateFee', value: 5 },
        ],
      },
    },
    {
      // Hamilton County, $10,000 transfer: state 5.75% = $575.00; local 7.80% - 5.75% = 2.05% x $10,000 = $205.00;
      //   tax $780.00; title $15; total $795.00
      name: 'Hamilton: $10,000 transfer, total rate 7.80%',
      input: {
        county: 'Hamilton',
        city: 'Cincinnati',
        transaction: 'transfer',
        vehicle: { title_state: 'OH' },
        sale: { price: 10_000 },
      },
      expect: {
        tax: { total: 780 },
        title: { total: 15 },
        total: 795,
        items: [{ section: 'tax', feeType: 'LocalTax', value: 205, county: 'Hamilton' }],
      },
    },
    {
      // ZIP 43215 (downtown Columbus, no county given): the Census 2010 ZCTA-to-county file puts 100% of ZCTA 43215 in
      //   Franklin County (states/oh/local.json zip_table): local 8% - 5.75% = 2.25% x $10,000 = $225.00; state $575.00
      name: 'ZIP 43215 finds Franklin County (Census ZCTA file): $10,000 transfer',
      input: { zip: '43215', transaction: 'transfer', vehicle: { title_state: 'OH' }, sale: { price: 10_000 } },
      expect: { tax: { total: 800 }, items: [{ section: 'tax', feeType: 'LocalTax', value: 225, county: 'Franklin' }] },
    },
    {
      // ZIP 45202 (downtown Cincinnati, no county given): the Census 2010 ZCTA-to-county file puts 100% of ZCTA 45202's
      //   population in Hamilton County (39061) (states/oh/local.json zip_table): local 7.80% - 5.75% = 2.05% x $10,000
      //   = $205.00; state 5.75% = $575.00; tax $780.00
      name: 'ZIP 45202 finds Hamilton County (Census ZCTA file): $10,000 transfer',
      input: { zip: '45202', transaction: 'transfer', vehicle: { title_state: 'OH' }, sale: { price: 10_000 } },
      expect: { tax: { total: 780 }, items: [{ section: 'tax', feeType: 'LocalTax', value: 205, county: 'Hamilton' }] },
    },
    {
      // ZIP 45241 is split: 65.47% of ZCTA 45241's population in Hamilton, 34.24% in Butler, 0.30% in Warren, so it is
      //   not in the table: the county stays unknown, the local tax is an unknown amount; state 5.75% = $575.00
      name: 'ZIP 45241 (split between Hamilton and Butler) leaves the county unknown',
      input: { zip: '45241', transaction: 'transfer', vehicle: { title_state: 'OH' }, sale: { price: 10_000 } },
      expect: { tax: { total: 575 }, items: [{ section: 'tax', feeType: 'LocalTax', value: null }], complete: false },
    },
    {
      // duplicate title: $15.00, nothing unsourced involved
      name: 'duplicate title: $15',
      input: { county: 'Franklin', transaction: 'duplicate' },
      expect: { title: { total: 15 }, total: 15, complete: true },
    },
  ],
});
