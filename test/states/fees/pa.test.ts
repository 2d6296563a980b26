import { testStateFees } from '../../support/tester-fees.js';

// Pennsylvania golden cases. No PA figure could be confirmed from a PennDOT or Department of Revenue page in
// the stored pages (states/pa/README.md): the 6% rate, the Allegheny/Philadelphia local rates, the $67 title,
// $34 lien and $45 registration fees are all unsourced. These cases pin down what the estimate then does:
// every amount is shown as unknown (null, with the data's figure in metadata.unsourced_cents) and no total
// counts it.
testStateFees('PA', {
  goldens: [
    {
      // Philadelphia, $25,000 purchase with a $5,000 trade-in: every figure unsourced -> all totals $0, incomplete
      name: 'Philadelphia: $25,000 purchase, nothing confirmed, nothing counted',
      input: { county: 'Philadelphia', transaction: 'new_lien', vehicle: { title_state: 'PA' }, sale: { price: 25_000, trade_in: 5_000 } },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        items: [
          { section: 'tax', feeType: 'StateTax', value: null },
          { section: 'title', feeType: 'TitleFee', value: null },
          { section: 'title', feeType: 'LienFee', value: null },
        ],
        complete: false,
      },
    },
    {
      name: 'Allegheny: $10,000 transfer, the local rate is unknown',
      input: { county: 'Allegheny', transaction: 'transfer', vehicle: { title_state: 'PA' }, sale: { price: 10_000 } },
      expect: { total: 0, items: [{ section: 'tax', feeType: 'LocalTax', value: null }], complete: false },
    },
    {
      name: 'duplicate title: the fee is not confirmed',
      input: { transaction: 'duplicate' },
      expect: { total: 0, items: [{ section: 'title', feeType: 'DuplicateTitleFee', value: null }], unknown: [/^title: Duplicate title/] },
    },
  ],
});
