import { testStateFees } from '../../support/tester-fees.js';

// Texas golden cases. Figures from states/tx/fees.json and the pages it cites (read 2026-11-20):
//   tax 6.25%: Comptroller text quoted at http://answers.google.com/answers/threadview/id/119915.html;
//   trade-in excluded: Tax Code 152.002(b)(5) https://texas.public.law/statutes/tex._tax_code_section_152.002;
//   80% of SPV: Tax Code 152.0412 https://texas.public.law/statutes/tex._tax_code_section_152.0412;
//   title $33 / $28: Transp. Code 501.138(a) https://texas.public.law/statutes/tex._transp._code_section_501.138;
//   Coryell $28: https://coryellcountytax.com/titles/ ; no separate lien fee: http://txdmv.gov/motorists/buying-or-selling-a-vehicle/add-remove-lien ;
//   registration $50.75 + TexasSure $1, local fees $0-$31.50: https://click2register.net/en/?p=14541 ;
//   processing & handling $4.75: texasanswers.com; inspection replacement $7.50: engineerfix.com;
//   late penalties: https://tax-office.traviscountytx.gov/vehicles/titles/titles-options/transfers/transfer-fees-penalties
testStateFees('TX', {
  goldens: [
    {
      // tax: 6.25% x $25,000 = $1,562.50; trade-in credit 6.25% x $5,000 = $312.50; due 6.25% x $20,000 = $1,250.00
      // title: Travis is a nonattainment county -> $33 (501.138(a)(1)); lien noted on the title application: $0
      // registration: $50.75 + $1 TexasSure + $4.75 processing + $7.50 inspection replacement = $64.00,
      //   plus Travis County's local fee, which the data does not have (unknown, at most $31.50)
      // total: $1,250.00 + $64.00 + $33.00 = $1,347.00 (a lower bound: the county fee is unknown)
      name: 'Travis County: $25,000 purchase with a new lien and a $5,000 trade-in (used car titled in TX)',
      input: { county: 'Travis', transaction: 'new_lien', vehicle: { year: 2022, title_state: 'TX' }, sale: { price: 25_000, trade_in: 5_000, date: '2026-11-01' } },
      expect: {
        tax: { taxable_amount: 20_000, total: 1_250 },
        registration: { total: 64 },
        title: { total: 33 },
        total: 1_347,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 1_562.5 },
          { section: 'tax', feeType: 'TradeInCredit', value: 312.5 },
          { section: 'title', feeType: 'TitleFee', value: 33 },
          { section: 'title', feeType: 'LienFee', value: 0 },
          { section: 'registration', feeType: 'RegistrationFee', value: 50.75 },
          { section: 'registration', feeType: 'RegistrationLocalFee', value: null },
        ],
        complete: false,
        unknown: [/^registration: County registration fee/],
      },
    },
    {
      // Coryell is an attainment county: title $28 (501.138(a)(2), Coryell County tax office); a transfer has no lien fee
      // tax 6.25% x $10,000 = $625.00; registration $64.00 + unknown county fee
      // total $625.00 + $64.00 + $28.00 = $717.00
      name: 'Coryell County: $10,000 transfer without a lien pays the $28 title fee',
      input: { county: 'Coryell', transaction: 'transfer', vehicle: { year: 2019, title_state: 'TX' }, sale: { price: 10_000 } },
      expect: {
        tax: { taxable_amount: 10_000, total: 625 },
        title: { total: 28 },
        total: 717,
        items: [{ section: 'title', feeType: 'TitleFee', value: 28, county: 'Coryell' }],
        unknown: [/^registration: County registration fee/],
      },
    },
    {
      // sale 2026-09-01, estimate 2026-11-20: 80 days
      // title: $25 on day 31 + $25 per further 30 days: 50 days late -> 2 periods = $50 (max $250)
      // tax: 10% after 60 days (replaces the 5% step): 6.25% x $25,000 = $1,562.50; 10% = $156.25; tax total $1,718.75
      // title: $33 + $0 lien + $50 = $83; registration $64.00 (+ unknown county fee); total $1,718.75 + $64 + $83 = $1,865.75
      name: 'late filing: 80 days after the sale adds the title and tax penalties',
      input: { county: 'Travis', transaction: 'new_lien', vehicle: { title_state: 'TX' }, sale: { price: 25_000, date: '2026-09-01' } },
      expect: {
        tax: { total: 1_718.75 },
        title: { total: 83 },
        total: 1_865.75,
        items: [
          { section: 'tax', feeType: 'LateFee', value: 156.25 },
          { section: 'title', feeType: 'LateFee', value: 50 },
        ],
      },
    },
    {
      // private sale below 80% of the standard presumptive value (Tax Code 152.0412): 80% x $15,000 SPV = $12,000 > $8,000 price
      // tax 6.25% x $12,000 = $750.00
      name: 'standard presumptive value: $8,000 price, $15,000 SPV -> taxed on $12,000',
      input: { county: 'Travis', transaction: 'transfer', vehicle: { title_state: 'TX', value: 15_000 }, sale: { price: 8_000 } },
      expect: { tax: { taxable_amount: 12_000, total: 750 } },
    },
  ],
});
