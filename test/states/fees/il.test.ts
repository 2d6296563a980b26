import { testStateFees } from '../../support/tester-fees.js';

// Illinois golden cases. The only IL fact confirmed on an official page is that local retailers' occupation
// taxes apply to dealer sales (tax.illinois.gov answer 33, states/il/README.md). The 6.25% rate, the RUT-50
// private-sale tax table, the $165 title, $151 registration and $50 duplicate fees were read only from
// third-party pages or statute mirrors: unsourced, shown, never counted.
testStateFees('IL', {
  goldens: [
    {
      // Cook County / Chicago, $30,000 dealer purchase: state rate unsourced -> unknown; local rate not modelled
      name: 'Chicago: $30,000 purchase, state and local tax unknown',
      input: { county: 'Cook', city: 'Chicago', transaction: 'new_lien', vehicle: { title_state: 'IL', year: 2022 }, sale: { price: 30_000 } },
      expect: {
        total: 0,
        items: [
          { section: 'tax', feeType: 'StateTax', value: null },
          { section: 'tax', feeType: 'LocalTax', value: null },
          { section: 'title', feeType: 'TitleFee', value: null },
          { section: 'registration', feeType: 'RegistrationFee', value: null },
        ],
        complete: false,
      },
    },
    {
      name: 'refinance: the title fee is not confirmed',
      input: { transaction: 'refinance', vehicle: { title_state: 'IL' } },
      expect: { total: 0, items: [{ section: 'title', feeType: 'TitleFee', value: null }], complete: false },
    },
    {
      name: 'duplicate title: the $50 fee is not confirmed',
      input: { transaction: 'duplicate' },
      expect: { total: 0, items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: null }], unknown: [/^title: Duplicate title/] },
    },
  ],
});
