import { testStateFees } from '../../support/tester-fees.js';

// California golden cases, from the official pages states/ca/fees.json and states/ca/local.json cite (read 2026-11-25):
//   CDTFA "California City & County Sales & Use Tax Rates (effective April 1, 2025)",
//     https://aws.cdtfa.ca.gov/taxes-and-fees/rates.aspx : state rate 7.25% (the table's base: Alpine County 7.250%,
//     no district tax);
//   CDTFA rate file effective January 1, 2026 (SalesTaxRates1-1-26.xlsx, listed on
//     https://www.cdtfa.ca.gov/taxes-and-fees/sales-use-tax-rates.htm; read from a copy, see states/ca/README.md):
//     combined rates Alhambra 10.500%, Anaheim 7.750%, San Diego 7.750%, Chula Vista 8.750%, San Francisco 8.625%,
//     Lancaster 11.250%, Riverside 8.750%;
//   DMV Fast Facts FFVR 34, https://dmv.ca.gov/portal/dmv/detail/pubs/brochures/fast_facts/ffvr34 :
//     registration fee $74 (includes $3 alternative fuel/technology fee), CHP fee $32;
//   DMV FFVR 10: reflectorized license plate fee $1 on a first registration;
//   Vehicle Code 9255 (leginfo.legislature.ca.gov): transfer by the owner of an automobile $15.
// Not confirmed on an official page (unsourced, shown but never counted): VLF 0.65%, TIF, the duplicate title
// fee, and whether a trade-in reduces the tax.
testStateFees('CA', {
  goldens: [
    {
      // Los Angeles County, city of Alhambra, new car $30,000:
      //   state 7.25% x $30,000 = $2,175.00; local = 10.500% - 7.25% = 3.25% x $30,000 = $975.00; tax $3,150.00
      //   registration $74 + $32 CHP + $1 reflectorized plate = $107 (VLF, TIF unsourced: unknown)
      //   title: original and lien fees unsourced (unknown) -> $0
      //   total $3,150 + $107 = $3,257.00 (a lower bound: complete is false)
      name: 'Los Angeles County, Alhambra: new $30,000 car with a new lien',
      input: {
        county: 'Los Angeles',
        city: 'Alhambra',
        transaction: 'new_lien',
        vehicle: { year: 2024, new: true, value: 30_000 },
        sale: { price: 30_000 },
      },
      expect: {
        tax: { taxable_amount: 30_000, total: 3_150 },
        registration: { total: 107 },
        title: { total: 0 },
        total: 3_257,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 2_175 },
          { section: 'tax', feeType: 'LocalTax', value: 975, county: 'Los Angeles' },
          { section: 'registration', feeType: 'RegistrationAdditionalFee', name: /^Registration fee$/, value: 74 },
          { section: 'registration', feeType: 'RegistrationAdditionalFee', name: /CHP/, value: 32 },
          { section: 'registration', feeType: 'RegistrationFee', value: null },
          { section: 'title', feeType: 'TitleFee', value: null },
        ],
        complete: false,
      },
    },
    {
      // Orange County, city of Anaheim, $12,345 transfer with a $2,000 trade-in:
      //   the trade-in rule is unsourced, so no credit: tax on $12,345
      //   state 7.25% x $12,345 = $895.01 (895.0125); local 7.750% - 7.25% = 0.5% x $12,345 = $61.73 (61.725); tax $956.74
      //   registration $74 + $32 = $106; title transfer fee $15 (Vehicle Code 9255); total $1,077.74
      name: 'Orange County, Anaheim: $12,345 transfer, the trade-in credit is not confirmed',
      input: {
        county: 'Orange',
        city: 'Anaheim',
        transaction: 'transfer',
        vehicle: { year: 2020, title_state: 'CA' },
        sale: { price: 12_345, trade_in: 2_000 },
      },
      expect: {
        tax: { taxable_amount: 12_345, total: 956.74 },
        registration: { total: 106 },
        title: { total: 15 },
        total: 1_077.74,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 895.01 },
          { section: 'tax', feeType: 'LocalTax', value: 61.73, county: 'Orange' },
          { section: 'title', feeType: 'TitleFee', value: 15 },
        ],
      },
    },
    {
      // San Diego County, city of San Diego, $10,000 transfer (CDTFA file effective January 1, 2026: "San Diego,
      //   7.750%, San Diego, City"): state 7.25% x $10,000 = $725.00; local 7.750% - 7.25% = 0.5% x $10,000 = $50.00;
      //   tax $775.00; registration $74 + $32 = $106; transfer fee $15 (Vehicle Code 9255); total $896.00
      name: 'San Diego County, San Diego: $10,000 transfer at the 7.75% combined rate',
      input: {
        county: 'San Diego',
        city: 'San Diego',
        transaction: 'transfer',
        vehicle: { title_state: 'CA' },
        sale: { price: 10_000 },
      },
      expect: {
        tax: { total: 775 },
        registration: { total: 106 },
        title: { total: 15 },
        total: 896,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 725 },
          { section: 'tax', feeType: 'LocalTax', value: 50, county: 'San Diego', city: 'San Diego' },
        ],
      },
    },
    {
      // San Diego County, city of Chula Vista ("Chula Vista, 8.750%, San Diego, City"), $20,000 transfer:
      //   state 7.25% x $20,000 = $1,450.00; local 8.750% - 7.25% = 1.5% x $20,000 = $300.00; tax $1,750.00
      name: 'San Diego County, Chula Vista: $20,000 transfer at the 8.75% combined rate',
      input: {
        county: 'San Diego',
        city: 'Chula Vista',
        transaction: 'transfer',
        vehicle: { title_state: 'CA' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 1_750 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: 300, county: 'San Diego', city: 'Chula Vista' }],
      },
    },
    {
      // San Francisco ("San Francisco, 8.625%, San Francisco, City"), $10,000 transfer:
      //   local 8.625% - 7.25% = 1.375% x $10,000 = $137.50; tax $725.00 + $137.50 = $862.50
      name: 'San Francisco: $10,000 transfer at the 8.625% combined rate',
      input: {
        county: 'San Francisco',
        city: 'San Francisco',
        transaction: 'transfer',
        vehicle: { title_state: 'CA' },
        sale: { price: 10_000 },
      },
      expect: {
        tax: { total: 862.5 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: 137.5, county: 'San Francisco', city: 'San Francisco' }],
      },
    },
    {
      // Los Angeles County, city of Lancaster ("Lancaster, 11.250%, Los Angeles, City"), the highest rate in the file,
      //   $10,000 transfer: local 11.25% - 7.25% = 4% x $10,000 = $400.00; tax $1,125.00
      name: 'Los Angeles County, Lancaster: $10,000 transfer at the 11.25% combined rate',
      input: {
        county: 'Los Angeles',
        city: 'Lancaster',
        transaction: 'transfer',
        vehicle: { title_state: 'CA' },
        sale: { price: 10_000 },
      },
      expect: {
        tax: { total: 1_125 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: 400, county: 'Los Angeles', city: 'Lancaster' }],
      },
    },
    {
      // Riverside County, city of Riverside ("Riverside, 8.750%, Riverside, City"), $15,000 transfer:
      //   state 7.25% x $15,000 = $1,087.50; local 1.5% x $15,000 = $225.00; tax $1,312.50
      name: 'Riverside County, Riverside: $15,000 transfer at the 8.75% combined rate',
      input: {
        county: 'Riverside',
        city: 'Riverside',
        transaction: 'transfer',
        vehicle: { title_state: 'CA' },
        sale: { price: 15_000 },
      },
      expect: {
        tax: { total: 1_312.5 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: 225, county: 'Riverside', city: 'Riverside' }],
      },
    },
    {
      // San Diego County, an unincorporated community (Spring Valley) not in the CDTFA file: the local tax is
      //   unknown (null), never the county's rate and never 0; state 7.25% x $10,000 = $725.00
      name: 'San Diego County, a community not in the table: the local tax is unknown',
      input: {
        county: 'San Diego',
        city: 'Spring Valley',
        transaction: 'transfer',
        vehicle: { title_state: 'CA' },
        sale: { price: 10_000 },
      },
      expect: {
        tax: { total: 725 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: null, county: 'San Diego' }],
        complete: false,
      },
    },
    {
      // Los Angeles County without a city: the rate depends on the city (CDTFA lists cities), so it is unknown
      name: 'Los Angeles County without a city: the local rate depends on the city',
      input: {
        county: 'Los Angeles',
        transaction: 'transfer',
        vehicle: { title_state: 'CA' },
        sale: { price: 10_000 },
      },
      expect: {
        tax: { total: 725 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: null, county: 'Los Angeles' }],
      },
    },
  ],
});
