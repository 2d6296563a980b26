import { testStateFees } from '../../support/tester-fees.js';

// California golden cases, from the official pages states/ca/fees.json and states/ca/local.json cite (read 2026-11-25):
//   CDTFA "California City & County Sales & Use Tax Rates (effective April 1, 2025)",
//     https://aws.cdtfa.ca.gov/taxes-and-fees/rates.aspx : combined rates Alhambra 10.500%, Anaheim 7.750%;
//     state rate 7.25% (the table's base: Alpine County 7.250%, no district tax);
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
      // San Diego County is not in the CDTFA rows shipped: the local tax is unknown (null), never 0
      //   state 7.25% x $10,000 = $725.00; registration $106; transfer fee $15 (Vehicle Code 9255); total $846.00
      name: 'San Diego County: local rate not modelled, so the local tax is unknown',
      input: {
        county: 'San Diego',
        city: 'San Diego',
        transaction: 'transfer',
        vehicle: { title_state: 'CA' },
        sale: { price: 10_000 },
      },
      expect: {
        tax: { total: 725 },
        registration: { total: 106 },
        total: 846,
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
