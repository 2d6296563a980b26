import { testStateFees } from '../../support/tester-fees.js';

// Texas golden cases, from the official pages states/tx/fees.json and states/tx/local.json cite (read 2026-11-25):
//   Travis County Tax Office, "Calculating Texas Sales Tax", https://tax-office.traviscountytx.gov/files/vehicles/dealers-tx-fees.pdf :
//     6.25% state tax, (Vehicle Price - Trade in Value) x 6.25%, no local rate;
//   Transp. Code 501.138(a), https://statutes.capitol.texas.gov/Docs/TN/htm/TN.501.htm#501.138 : title $33 (the data's default);
//   Tax Code 152.0412: tax on 80% of the standard presumptive value when the price is lower;
//   TxDMV add/remove lien page: no separate lien fee ($0);
//   Travis County Tax Office late penalties (title $25 after 30 days plus $25 per 30 days; tax 5% after 30, 10% after 60 days).
//   Transp. Code 502.401-502.403 (https://statutes.capitol.texas.gov/Docs/TN/htm/TN.502.htm): a county may add a road
//     and bridge fee up to $10, a transportation project fee up to $10/$20 and a child safety fee up to $1.50 ($31.50).
// Unsourced (never counted): the $50.75 base registration fee, TexasSure, processing and inspection fees; no
// county's own optional-fee amounts are in the data (Harris, Dallas, Tarrant: unknown, at most $31.50).
testStateFees('TX', {
  goldens: [
    {
      // Travis County, $25,000 purchase, $5,000 trade-in, new lien:
      //   6.25% x $25,000 = $1,562.50; credit 6.25% x $5,000 = $312.50; tax $1,250.00; local tax $0 (state-only tax)
      //   title $33 + lien $0; registration: every figure unsourced -> $0 (unknown); total $1,283.00
      name: 'Travis County: $25,000 purchase with a new lien and a $5,000 trade-in',
      input: {
        county: 'Travis',
        transaction: 'new_lien',
        vehicle: { year: 2022, title_state: 'TX' },
        sale: { price: 25_000, trade_in: 5_000, date: '2026-11-01' },
      },
      expect: {
        tax: { taxable_amount: 20_000, total: 1_250 },
        registration: { total: 0 },
        title: { total: 33 },
        total: 1_283,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1_562.5 },
          { section: 'tax', feeType: 'TradeInCredit', value: 312.5 },
          { section: 'tax', feeType: 'LocalTax', value: 0 },
          { section: 'title', feeType: 'TitleFee', value: 33 },
          { section: 'title', feeType: 'LienFee', value: 0 },
          { section: 'registration', feeType: 'RegistrationFee', value: null },
        ],
        complete: false,
      },
    },
    {
      // no county given, ZIP 78714 (Travis County Tax Office's mailing ZIP) finds Travis County:
      //   $10,000 transfer: 6.25% = $625.00; title $33; total $658.00
      name: 'ZIP 78714 finds Travis County: $10,000 transfer',
      input: { zip: '78714', transaction: 'transfer', vehicle: { title_state: 'TX' }, sale: { price: 10_000 } },
      expect: {
        tax: { total: 625 },
        title: { total: 33 },
        total: 658,
        items: [{ section: 'registration', feeType: 'RegistrationLocalFee', value: null, county: 'Travis' }],
      },
    },
    {
      // Harris County private sale below 80% of SPV: 80% x $15,000 = $12,000 > $8,000 price; 6.25% x $12,000 = $750.00
      //   local $0; title $33; total $783.00
      name: 'Harris County: $8,000 price, $15,000 SPV -> taxed on $12,000',
      input: {
        county: 'Harris',
        transaction: 'transfer',
        vehicle: { title_state: 'TX', value: 15_000 },
        sale: { price: 8_000 },
      },
      expect: { tax: { taxable_amount: 12_000, total: 750 }, title: { total: 33 }, total: 783 },
    },
    {
      // late filing, sale 2026-09-01, estimate 2026-11-20 = 80 days:
      //   title: $25 on day 31 + $25 per further 30 days, 50 days late -> 2 periods = $50; title $33 + $0 lien + $50 = $83
      //   tax: 10% after 60 days: 6.25% x $25,000 = $1,562.50, penalty $156.25, tax $1,718.75; total $1,801.75
      name: 'Dallas County: 80 days after the sale adds the title and tax penalties',
      input: {
        county: 'Dallas',
        transaction: 'new_lien',
        vehicle: { title_state: 'TX' },
        sale: { price: 25_000, date: '2026-09-01' },
      },
      expect: {
        tax: { total: 1_718.75 },
        title: { total: 83 },
        total: 1_801.75,
        items: [
          { section: 'tax', feeType: 'LateFee', value: 156.25 },
          { section: 'title', feeType: 'LateFee', value: 50 },
        ],
      },
    },
    {
      // Tarrant County, $20,000 purchase: 6.25% = $1,250.00; local tax a sourced $0 (state-only tax); title $33;
      //   the county's optional registration fees are not in the data: unknown, max $31.50 (Transp. Code 502.401-.403)
      name: 'Tarrant County: $20,000 purchase, county fees unknown (at most $31.50)',
      input: { county: 'Tarrant', transaction: 'purchase', vehicle: { title_state: 'TX' }, sale: { price: 20_000 } },
      expect: {
        tax: { total: 1_250 },
        title: { total: 33 },
        total: 1_283,
        items: [
          { section: 'tax', feeType: 'LocalTax', value: 0 },
          { section: 'registration', feeType: 'RegistrationLocalFee', value: null, county: 'Tarrant' },
        ],
        complete: false,
      },
    },
  ],
});
