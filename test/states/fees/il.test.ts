import { testStateFees } from '../../support/tester-fees.js';

// Illinois golden cases, from the official pages states/il/fees.json cites (read 2026-11-20 and 2026-11-25):
//   625 ILCS 5/3-821(a) (https://www.ilga.gov/legislation/ilcs/fulltext.asp?DocName=062500050K3-821):
//     Certificate of Title $165; Duplicate Certificate of Title $50;
//   tax.illinois.gov answer 33: local retailers' occupation taxes apply to dealer sales (rates not modelled).
// Unsourced (shown, never counted): the 6.25% rate, the RUT-50 private-sale table, the $151 registration fee,
// the lien fee. Local tax by county is not modelled for IL (no official rate table was read).
testStateFees('IL', {
  goldens: [
    {
      // Cook County / Chicago, $30,000 dealer purchase: state rate unsourced -> unknown; local rate not modelled;
      //   title $165 (625 ILCS 5/3-821); registration unsourced; total $165.00, incomplete
      name: 'Chicago: $30,000 purchase, tax unknown, title $165',
      input: { county: 'Cook', city: 'Chicago', transaction: 'new_lien', vehicle: { title_state: 'IL', year: 2022 }, sale: { price: 30_000 } },
      expect: {
        total: 165,
        title: { total: 165 },
        items: [
          { section: 'tax', feeType: 'StateTax', value: null },
          { section: 'tax', feeType: 'LocalTax', value: null },
          { section: 'title', feeType: 'TitleFee', value: 165 },
          { section: 'registration', feeType: 'RegistrationFee', value: null },
        ],
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
