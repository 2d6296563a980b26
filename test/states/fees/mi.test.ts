import { testStateFees } from '../../support/tester-fees.js';

// Michigan golden cases, from MCL 257.806 (Michigan Legislature,
// https://ombudsman.legislature.mi.gov/Home/RenderDoc?objectName=mcl-300-1949-VII-CERTIFICATE-OF-TITLE-DEALERS-LICENSE-AND-LIENS):
//   (1) certificate of title or duplicate $10.00, plus a $3.00 service fee for each title issued;
//   (3) scrap tire disposal surcharge $1.50 for each certificate of title or duplicate (until December 31, 2027).
// Michigan Department of Treasury, Sales and Use Tax FAQs (http://www.michigan.gov/taxes/0,1607,7-238-43529-154427--,00.html):
//   6% sales tax, 6% use tax; "Michigan does not allow city or local units to impose sales or use taxes".
// Unsourced (no Treasury or Secretary of State page found): the registration table, the lien fee and the late fees.
testStateFees('MI', {
  goldens: [
    {
      // duplicate title: $10 + $3 + $1.50 = $14.50
      name: 'duplicate title: $10 fee, $3 service fee, $1.50 tire surcharge',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 14.5 },
        total: 14.5,
        items: [
          { section: 'title', feeType: 'DuplicateTitleFee', value: 10 },
          { section: 'title', feeType: 'TitleAdditionalFee', name: /service fee/, value: 3 },
          { section: 'title', feeType: 'TitleAdditionalFee', name: /tire/, value: 1.5 },
        ],
        complete: true,
      },
    },
    {
      // Wayne County, new car MSRP $40,000 bought for $38,000 with a new lien: tax 6% x $38,000 = $2,280.00;
      //   local tax a sourced $0 (no local sales or use tax in Michigan); title $10 + $3 + $1.50 = $14.50;
      //   registration and lien fee unsourced -> unknown; total $2,294.50
      name: 'Wayne County: $38,000 purchase, 6% tax and the title fees',
      input: {
        county: 'Wayne',
        transaction: 'new_lien',
        vehicle: { title_state: 'MI', msrp: 40_000, year: 2024 },
        sale: { price: 38_000 },
      },
      expect: {
        tax: { total: 2_280 },
        title: { total: 14.5 },
        total: 2_294.5,
        items: [
          { section: 'tax', feeType: 'StateTax', value: 2_280 },
          { section: 'tax', feeType: 'LocalTax', value: 0 },
          { section: 'title', feeType: 'TitleFee', value: 10 },
          { section: 'title', feeType: 'LienFee', value: null },
        ],
        complete: false,
      },
    },
    {
      // refinance: title $10 + $3 + $1.50 = $14.50; lien fee unsourced
      name: 'refinance: title fees, lien fee unknown',
      input: { transaction: 'refinance', vehicle: { title_state: 'MI' } },
      expect: { title: { total: 14.5 }, total: 14.5, unknown: [/^title: Lien recording fee/] },
    },
    {
      // Oakland County, $12,345.67 transfer: 6% = $740.7402 -> $740.74; local $0; title $14.50; total $755.24
      name: 'Oakland County: $12,345.67 transfer, 6% rounded to the cent',
      input: { county: 'Oakland', transaction: 'transfer', vehicle: { title_state: 'MI' }, sale: { price: 12_345.67 } },
      expect: {
        tax: { total: 740.74 },
        title: { total: 14.5 },
        total: 755.24,
        items: [{ section: 'tax', feeType: 'LocalTax', value: 0 }],
      },
    },
  ],
});
