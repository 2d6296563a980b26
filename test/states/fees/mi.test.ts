import { testStateFees } from '../../support/tester-fees.js';

// Michigan golden cases, from MCL 257.806 (Michigan Legislature,
// https://ombudsman.legislature.mi.gov/Home/RenderDoc?objectName=mcl-300-1949-VII-CERTIFICATE-OF-TITLE-DEALERS-LICENSE-AND-LIENS):
//   (1) certificate of title or duplicate $10.00, plus a $3.00 service fee for each title issued;
//   (3) scrap tire disposal surcharge $1.50 for each certificate of title or duplicate (until December 31, 2027).
// Unsourced (no Treasury or Secretary of State page found): the 6% use tax, the registration table, the lien fee
// and the late fees.
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
      // Wayne County, new car MSRP $40,000 bought for $38,000 with a new lien: title $10 + $3 + $1.50 = $14.50;
      //   use tax, registration and lien fee unsourced -> unknown; total $14.50
      name: 'Wayne County: $38,000 purchase, only the title fees are confirmed',
      input: { county: 'Wayne', transaction: 'new_lien', vehicle: { title_state: 'MI', msrp: 40_000, year: 2024 }, sale: { price: 38_000 } },
      expect: {
        title: { total: 14.5 },
        total: 14.5,
        items: [
          { section: 'tax', feeType: 'StateTax', value: null },
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
  ],
});
