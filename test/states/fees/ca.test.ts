import { testStateFees } from '../../support/tester-fees.js';

// California golden cases. Figures from states/ca/fees.json and the pages it cites (read 2026-11-20):
//   sales/use tax 7.25% statewide minimum, district taxes on top: https://legalclarity.org/car-sales-tax-in-california-how-it-works (cites CDTFA);
//   no trade-in credit (CDTFA Reg. 1654): https://legalclarity.org/does-a-trade-in-reduce-sales-tax-in-california ;
//   VLF 0.65% of market value; market value = midpoint of the $200 class of the price (R&TC 10753.2(b)), 100% in the first
//     year of the current owner (10753.2(c)): http://www.boe.ca.gov/lawguides/property/archive/2010/rt/10753-2.html ;
//   registration fee $74, TIF $65 ($5,000-$24,999) / $129 ($25,000-$34,999): https://californialicenseplate.org/vehicle-registration-fees ;
//   CHP fee $32: https://qr.dmv.ca.gov/portal/vehicle-registration/registration-fees ; reflectorized plate $1 on initial registration (FFVR10);
//   transfer fee $15: https://carscounsel.com/california-title-transfer-guide ; original title and lien fees: not sourced.
testStateFees('CA', {
  goldens: [
    {
      // tax: 7.25% x $25,000 = $1,812.50 (district tax unknown: no county given)
      // VLF: $25,000 is in the class $25,000-$25,199.99, midpoint $25,100; first year 100%; 0.65% x $25,100 = $163.15
      // registration: $163.15 + $74 + $32 CHP + $129 TIF ($25,100 is in $25,000-$34,999) + $1 plate (initial) = $399.15
      // title: original title fee and lien fee are unsourced -> unknown (null), title total $0 known
      // total: $1,812.50 + $399.15 = $2,211.65 (a lower bound)
      name: 'new car, $25,000, purchase with a new lien',
      input: { transaction: 'new_lien', vehicle: { year: 2026, new: true }, sale: { price: 25_000 } },
      expect: {
        tax: { taxable_amount: 25_000, total: 1_812.5 },
        registration: { total: 399.15 },
        title: { total: 0 },
        total: 2_211.65,
        items: [
          { section: 'registration', feeType: 'RegistrationFee', value: 163.15 },
          { section: 'registration', feeType: 'RegistrationAdditionalFee', name: /TIF/, value: 129 },
          { section: 'registration', feeType: 'RegistrationAdditionalFee', name: /Reflectorized/, value: 1 },
          { section: 'title', feeType: 'TitleFee', value: null },
          { section: 'title', feeType: 'LienFee', value: null },
          { section: 'tax', feeType: 'LocalTax', value: null },
        ],
        complete: false,
        unknown: [/^title: Certificate of title \(original\)/, /^title: Lien recording fee/, /^tax: Local sales tax/],
      },
    },
    {
      // tax: 7.25% x $12,345 = $895.0125 -> $895.01; the $3,000 trade-in does not reduce it (Reg. 1654)
      // VLF: $12,345 is in $12,200-$12,399.99, midpoint $12,300; 0.65% x $12,300 = $79.95
      // registration: $79.95 + $74 + $32 + $65 TIF ($5,000-$24,999); no plate fee (already registered in CA) = $250.95
      // title: transfer $15; total $895.01 + $250.95 + $15 = $1,160.96 (district tax unknown)
      name: 'used CA car, $12,345 transfer: the trade-in does not reduce the tax',
      input: { transaction: 'transfer', vehicle: { year: 2018, title_state: 'CA' }, sale: { price: 12_345, trade_in: 3_000 } },
      expect: {
        tax: { taxable_amount: 12_345, total: 895.01 },
        registration: { total: 250.95 },
        title: { total: 15 },
        total: 1_160.96,
        unknown: [/^tax: Local sales tax/],
      },
    },
  ],
});
