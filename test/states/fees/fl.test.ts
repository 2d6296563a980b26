import { testStateFees } from '../../support/tester-fees.js';

// Florida golden cases, from the official pages states/fl/local.json cites (read 2026-11-25):
//   Florida DOR Discretionary Sales Surtax Rate Table (PointMatch, as corrected January 7, 2025),
//     https://pointmatch.floridarevenue.com/General/DiscretionarySalesSurtaxRates.aspx :
//     Broward 1.00%, Duval 1.50%, Hamilton 2.00%, Citrus 0.00% (the rows read: Alachua to Hardee);
//   Miami-Dade 1% = 0.5% Charter County Transit System Surtax (Ordinance 02-116, miamidade.gov legislative item
//     022196, no sunset) + 0.5% county public hospital surtax (Ordinance 91-64, "has no expiration date", FL DOR
//     TIP 98(A)15-03); Palm Beach's current surtax was not confirmed (not shipped: unknown);
//   the surtax applies to the first $5,000 of a vehicle's price (tax.local.max_taxable_cents; its own source is
//   unconfirmed, see states/fl/README.md).
//   Hillsborough County Tax Collector fee table, https://www.hillstax.org/title-tag/payment-fees/ : transferring an
//     MCO $77.75, a Florida title $75.75, duplicate title $75.75; FLHSMV Fees, https://flhsmv.gov/Fees : "An
//     additional $2 lien recording fee may also apply".
// Unsourced (shown, never counted): the 6% state rate and the registration fees. So the tax total of these cases
// is the county surtax alone and every purchase estimate is incomplete.
testStateFees('FL', {
  goldens: [
    {
      // Broward, $25,000 purchase with a $5,000 trade-in: surtax 1% x first $5,000 = $50.00
      //   (the net $20,000 is still above $5,000, so the credit does not touch the surtax)
      //   state 6% unsourced -> unknown; trade-in credit unknown (the tax it reduces is not confirmed), and a credit
      //   that is not counted does not lower the taxable amount either: it stays $25,000 (the calculator's rule)
      //   title: Florida title transferred $75.75 + lien recording $2.00 = $77.75; total $127.75
      name: 'Broward: $25,000 purchase, surtax 1% on the first $5,000',
      input: {
        county: 'Broward',
        transaction: 'new_lien',
        vehicle: { title_state: 'FL', weight_lbs: 3_200 },
        sale: { price: 25_000, trade_in: 5_000 },
      },
      expect: {
        tax: { taxable_amount: 25_000, total: 50 },
        title: { total: 77.75 },
        total: 127.75,
        items: [
          { section: 'tax', feeType: 'LocalTax', value: 50, county: 'Broward' },
          { section: 'tax', feeType: 'StateTax', value: null },
          { section: 'title', feeType: 'TitleFee', value: 75.75 },
          { section: 'title', feeType: 'LienFee', value: 2 },
        ],
        complete: false,
      },
    },
    {
      // Duval, $10,000 transfer: surtax 1.5% x $5,000 = $75.00
      name: 'Duval: $10,000 transfer, surtax 1.5% on the first $5,000',
      input: { county: 'Duval', transaction: 'transfer', vehicle: { title_state: 'FL' }, sale: { price: 10_000 } },
      expect: { tax: { total: 75 }, items: [{ section: 'tax', feeType: 'LocalTax', value: 75, county: 'Duval' }] },
    },
    {
      // Hamilton, $4,000 transfer (under the cap): surtax 2% x $4,000 = $80.00
      name: 'Hamilton: $4,000 transfer, surtax 2% on the whole price',
      input: { county: 'Hamilton', transaction: 'transfer', vehicle: { title_state: 'FL' }, sale: { price: 4_000 } },
      expect: { tax: { total: 80 }, items: [{ section: 'tax', feeType: 'LocalTax', value: 80, county: 'Hamilton' }] },
    },
    {
      // Citrus levies no surtax: 0.00% x $5,000 = $0.00 (a sourced zero, not an unknown)
      name: 'Citrus: no surtax, a sourced $0',
      input: { county: 'Citrus', transaction: 'transfer', vehicle: { title_state: 'FL' }, sale: { price: 9_000 } },
      expect: { tax: { total: 0 }, items: [{ section: 'tax', feeType: 'LocalTax', value: 0, county: 'Citrus' }] },
    },
    {
      // ZIP 33128 (Miami-Dade Tax Collector's office) finds Miami-Dade: surtax 1% x first $5,000 = $50.00
      name: 'ZIP 33128 finds Miami-Dade: surtax 1% on the first $5,000',
      input: { zip: '33128', transaction: 'transfer', vehicle: { title_state: 'FL' }, sale: { price: 10_000 } },
      expect: {
        tax: { total: 50 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: 50, county: 'Miami-Dade' }],
        complete: false,
      },
    },
    {
      // ZIP 33176 (no county given): the Census 2010 ZCTA-to-county file puts 100% of ZCTA 33176 in Miami-Dade
      //   (states/fl/local.json zip_table): surtax 1% x first $5,000 = $50.00
      name: 'ZIP 33176 finds Miami-Dade (Census ZCTA file)',
      input: { zip: '33176', transaction: 'transfer', vehicle: { title_state: 'FL' }, sale: { price: 22_000 } },
      expect: { tax: { total: 50 }, items: [{ section: 'tax', feeType: 'LocalTax', value: 50, county: 'Miami-Dade' }] },
    },
    {
      // ZIP 33024 (Pembroke Pines): the Census file puts 100% of ZCTA 33024 in Broward: surtax 1% x $5,000 = $50.00
      name: 'ZIP 33024 finds Broward (Census ZCTA file)',
      input: { zip: '33024', transaction: 'transfer', vehicle: { title_state: 'FL' }, sale: { price: 12_000 } },
      expect: { tax: { total: 50 }, items: [{ section: 'tax', feeType: 'LocalTax', value: 50, county: 'Broward' }] },
    },
    {
      // Miami-Dade, $3,000 transfer (under the cap): surtax 1% x $3,000 = $30.00
      name: 'Miami-Dade: $3,000 transfer, surtax 1% on the whole price',
      input: { county: 'Miami-Dade', transaction: 'transfer', vehicle: { title_state: 'FL' }, sale: { price: 3_000 } },
      expect: { tax: { total: 30 }, items: [{ section: 'tax', feeType: 'LocalTax', value: 30, county: 'Miami-Dade' }] },
    },
    {
      // ZIP 33401 (Palm Beach Tax Collector) finds Palm Beach; its current surtax is not confirmed: unknown
      name: 'ZIP 33401 finds Palm Beach, whose surtax is not modelled',
      input: { zip: '33401', transaction: 'transfer', vehicle: { title_state: 'FL' }, sale: { price: 10_000 } },
      expect: {
        tax: { total: 0 },
        items: [{ section: 'tax', feeType: 'LocalTax', value: null, county: 'Palm Beach' }],
        complete: false,
      },
    },
    {
      // duplicate title: $75.75 (Hillsborough County Tax Collector's fee table)
      name: 'duplicate title: $75.75',
      input: { transaction: 'duplicate' },
      expect: { total: 75.75, items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: 75.75 }] },
    },
  ],
});
