import { testStateFees } from '../../support/tester-fees.js';

// South Dakota golden cases. Sourced (SD Department of Revenue "Titling and Registration" fees): duplicate $10, solid waste fee $1,
// highway patrol fee $1, late title penalty $1 plus $1 per further 7 days after 30 days (max $50), late tax 1.25% per 30 days, no local tax.
// The $10 title fee: SDCL 32-3A-25. Unsourced: the lien fee, registration, the 4% excise rate.
testStateFees('SD', {
  goldens: [
    {
      // duplicate $10 + solid waste $1 + highway patrol $1 = $12; nothing unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 12 },
        total: 12,
        complete: true,
        unknown: [],
      },
    },
    {
      // title fee $10 (SDCL 32-3A-25: "a ten-dollar fee for ... a transfer of title"); solid waste $1 + highway patrol $1;
      // registration and 4% excise unsourced -> unknown; total $12
      name: 'used SD car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'SD' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 12 },
        total: 12,
        complete: false,
        unknown: [/^registration: Registration fee \(by weight\)/, /^tax: State motor vehicle sales tax/],
      },
    },
    {
      // 50 days after the sale, 20 past the 30-day deadline: $1 + $1 x 2 further started 7-day periods = $3
      // the late tax penalty (1.25% of the tax) is unknown because the excise rate is unsourced
      // title $10 + $1 + $1 + $3 = $15; total $15
      name: 'used SD car, $20,000, sold 50 days ago: the late title penalty',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'SD' },
        sale: { price: 20_000, date: '2026-10-01' },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 15 },
        total: 15,
        items: [{ section: 'title', feeType: 'LateFee', value: 3 }],
        complete: false,
        unknown: [
          /^registration: Registration fee \(by weight\)/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Late tax penalty/,
        ],
      },
    },
  ],
});
