import { testStateFees } from '../../support/tester-fees.js';

// Missouri golden cases. Sourced (README): the passenger registration fees by taxable horsepower, from the Missouri
// DOR's Motor Vehicle Fees table (dor.mo.gov/motorv/fees.php: 24 - 35 HP, 1-Year Fee $24.25, the default; under 12 HP
// $18.25 ... 72 HP + $51.25). Every other figure is unsourced: shown, left out of the totals, listed as unknown, so the
// totals are a lower bound and the estimate is incomplete.
testStateFees('MO', {
  goldens: [
    {
      // duplicate (no amount) and title processing fee $6 unsourced -> unknown
      name: 'duplicate title',
      input: { transaction: 'duplicate' },
      expect: {
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [/^title: Duplicate title/, /^title: Title processing fee/],
      },
    },
    {
      // registration $24.25 (24-35 HP, the default bracket; DOR table). Title $8.50, processing fees $6 + $6 and the
      // 4.225% tax unsourced -> unknown; local: county not modelled. Totals: registration $24.25, total $24.25.
      name: 'used MO car, $20,000, transfer without a lien',
      input: {
        transaction: 'transfer',
        vehicle: { year: 2020, weight_lbs: 3500, title_state: 'MO' },
        sale: { price: 20_000 },
      },
      expect: {
        tax: { total: 0 },
        registration: { total: 24.25 },
        title: { total: 0 },
        total: 24.25,
        items: [{ section: 'registration', feeType: 'RegistrationFee', value: 24.25 }],
        complete: false,
        unknown: [
          /^title: Certificate of title \(transfer\)/,
          /^title: Title processing fee/,
          /^registration: Registration processing fee/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
    {
      // title $8.50 unsourced, lien no amount, processing fee $6 -> unknown
      name: 'refinance: title and lien fee only',
      input: { transaction: 'refinance' },
      expect: {
        tax: { total: 0 },
        registration: { total: 0 },
        title: { total: 0 },
        total: 0,
        complete: false,
        unknown: [
          /^title: Certificate of title \(transfer\)/,
          /^title: Lien recording fee/,
          /^title: Title processing fee/,
        ],
      },
    },
    {
      // new car financed, $25,000: registration $24.25 (default 24-35 HP bracket, DOR table) counted; the other
      // horsepower brackets replace it and are listed as not included (optional). Title $8.50, lien (no amount),
      // processing fees and the tax unsourced -> unknown.
      name: 'new MO car, $25,000, financed',
      input: { transaction: 'new_lien', vehicle: { year: 2026, new: true }, sale: { price: 25_000 } },
      expect: {
        registration: { total: 24.25 },
        title: { total: 0 },
        total: 24.25,
        complete: false,
        unknown: [
          /^title: Certificate of title \(original\)/,
          /^title: Lien recording fee/,
          /^title: Title processing fee/,
          /^registration: Registration processing fee/,
          /^tax: State motor vehicle sales tax/,
          /^tax: Local sales tax \(county not modelled/,
        ],
      },
    },
  ],
});
