/**
 * Georgia: the official MV-1 (title application), T-8 (limited power of
 * attorney) and T-7 (bill of sale with the seller's odometer declaration) are
 * filled when found in a template folder. The MV-1 records the odometer
 * reading and its exceptions itself (section A), so only a purchase adds a
 * separate odometer document, the T-7 bill of sale. Other forms are drawn.
 */
import { defineState } from '../standard.js';

const MV1 = 'https://dor.georgia.gov/document/form/mv-1-motor-vehicle-title-tag-application/download';
const T7 = 'https://dor.georgia.gov/document/form/t-7-bill-sale/download';
const owner = (n: 1 | 2) => {
  const p = `owner${n}` as const;
  return [
    { field: `Owner${n}_0`, value: `${p}.name` },
    { field: `Owner${n}_1`, value: `${p}.dl_number` },
    { field: `Owner${n}_2`, value: `${p}.dl_state` },
    { field: `Owner${n}_3`, value: `${p}.dob` },
    { field: `Owner${n}_4`, value: `${p}.email` },
    { field: `Owner${n}_5`, value: `${p}.phone` },
    { field: `Owner${n}_8`, value: `${p}.addr.one_line` },
    { field: `Owner${n}_9`, value: `${p}.mailing.one_line` },
  ] as const;
};
const elt = (from: number) => Array.from({ length: 12 }, (_, i) => `SecIntLieInfo_${from + i}`);

export default defineState({
  code: 'GA',
  name: 'Georgia',
  agency: 'Georgia Department of Revenue, Motor Vehicle Division',
  forms: {
    add_owner: ['form_title_application'],
    drop_owner: ['form_title_application', 'form_statement_of_fact'],
    repossession: ['form_repo_affidavit', 'form_title_application'],
    out_of_state_transfer: ['form_title_application', 'form_vin_verification'],
  },
  templates: {
    form_title_application: {
      file: 'ga/MV-1.pdf',
      name: 'Form MV-1, Motor Vehicle Title/Tag Application',
      printed: 'Form MV-1',
      url: MV1,
      sha256: 'fee8bbaa32d442340a6ec206ef02c1ae9c10ad2767471c1b31958ab5a2f6b4c6',
      fields: [
        { field: 'VIN', value: 'vehicle.vin' },
        { field: 'Current Title #', value: 'title.number' },
        { field: 'Year', value: 'vehicle.year' },
        { field: 'Make', value: 'vehicle.make' },
        { field: 'Current Title State', value: 'title.issuing_state' },
        { field: 'Color', value: 'vehicle.color' },
        { field: 'Model', value: 'vehicle.model' },
        { field: 'County of Residence', value: 'owner1.addr.county' },
        { field: 'Body Style', value: 'vehicle.body' },
        { field: 'Fuel Type', value: 'vehicle.fuel' },
        { check: 'EXEMPT', when: 'title.odometer_exempt' },
        { check: 'Exceeds Mechanical Limits of Odometer', when: 'title.odometer_exceeds' },
        { check: 'Not the Actual Mileage Warning Odometer discrepancy', when: 'title.odometer_not_actual' },
        { field: 'Odometer Reading', value: 'title.odometer' },
        { field: 'Date Purchased', value: 'sale.date' },
        { field: 'Number of Owners', value: 'owners_count' },
        ...owner(1),
        ...owner(2),
        { field: 'Seller Information_21', value: 'seller.name', if: 'txn.ownership_change' },
        { field: 'Seller Information_22', value: 'seller.addr.street', if: 'txn.ownership_change' },
        { field: 'Seller Information_23', value: 'seller.addr.city_state_zip', if: 'txn.ownership_change' },
        { chars: elt(0), value: 'lien.elt_id' },
        { field: 'SecIntLieInfo_12', value: 'lien.holder_name' },
        { field: 'SecIntLieInfo_13', value: 'lien.holder_addr.one_line' },
      ],
    },
    forms_poa: {
      file: 'ga/T-8.pdf',
      name: 'Form T-8, Limited Power of Attorney - Motor Vehicle Transactions',
      printed: 'Form T-8',
      url: 'https://dor.georgia.gov/document/form/t-8-limited-power-attorney/download',
      sha256: '6440c54103720564861289896da38cd3560545c63b76ac7aec87889fbce16bce',
      fields: [
        { field: 'IWe1', value: 'signer.name' },
        { field: 'Appoint1', value: 'grantee' },
        { field: 'Vehicle Identification Number VIN', value: 'vehicle.vin' },
        { field: 'Year', value: 'vehicle.year' },
        { field: 'Make', value: 'vehicle.make' },
        { field: 'Model', value: 'vehicle.model' },
        { field: 'Legal Names', value: 'signer.name' },
        { field: 'Owners Address', value: 'signer.mailing.one_line' },
        { field: 'Owners Phone Number', value: 'signer.phone' },
        { field: 'Owner(s) Valid Driver’s License Number', value: 'signer.dl_number' },
        { field: 'Name(s) as listed on Driver’s License', value: 'signer.name' },
        { field: 'Name(s) of Issuing State', value: 'signer.dl_state' },
      ],
    },
    form_odometer_disclosure: {
      file: 'ga/T-7.pdf',
      name: 'Form T-7, Bill of Sale (odometer declared by the seller, acknowledged by the buyer)',
      printed: 'T-7',
      url: T7,
      sha256: '7c7948c34b148cc19aaf2921312d9471c72b4a56a2e1df2fa3865be21c276d04',
      fields: [
        { field: 'VIN', value: 'vehicle.vin' },
        { field: 'Year', value: 'vehicle.year' },
        { field: 'Make', value: 'vehicle.make' },
        { field: 'Model', value: 'vehicle.model' },
        { field: 'Odometer Reading', value: 'title.odometer' },
        { field: 'MM', value: 'sale.date_mm' },
        { field: 'DD', value: 'sale.date_dd' },
        { field: 'YY', value: 'sale.date_yyyy' },
        { field: 'Purchase Price', value: 'sale.price' },
        { field: 'SellersTransferors.0', value: 'seller.name' },
        { field: 'Street Name', value: 'seller.addr.street' },
        { field: 'City', value: 'seller.addr.city' },
        { field: 'State', value: 'seller.addr.state' },
        { field: 'ZIP Code', value: 'seller.addr.zip' },
        { field: 'County', value: 'seller.addr.county' },
        { field: 'PurchasersTransferees.0', value: 'owner1.name' },
        { field: 'PurchasersTransferees.1', value: 'owner2.name' },
        { field: 'Street Name_2', value: 'owner1.addr.street' },
        { field: 'City_2', value: 'owner1.addr.city' },
        { field: 'State_2', value: 'owner1.addr.state' },
        { field: 'ZIP Code_2', value: 'owner1.addr.zip' },
        { field: 'County_2', value: 'owner1.addr.county' },
        { field: 'Lienholders or Security', value: 'lien.holder_name' },
        { field: 'Street Name_3', value: 'lien.holder_addr.street' },
        { field: 'City_3', value: 'lien.holder_addr.city' },
        { field: 'State_3', value: 'lien.holder_addr.state' },
        { field: 'ZIP Code_3', value: 'lien.holder_addr.zip' },
        { field: 'Telephone No', value: 'lien.holder_phone' },
        { field: 'SellersTransferors_2.0.0', value: 'seller.name' },
        { field: 'BuyersTransferees.0.0', value: 'owner1.name' },
        { field: 'BuyersTransferees.0.1', value: 'owner2.name' },
      ],
    },
  },
  drawn: {
    form_odometer_disclosure: { officialName: 'Form T-7, Bill of Sale (with odometer declaration)' },
  },
  rules: {
    sources: [
      {
        url: MV1,
        date: '2026-11-25',
        note: 'MV-1 (Revised 6-2020) section A records the odometer reading and its exceptions',
      },
      {
        url: T7,
        date: '2026-11-25',
        note: 'T-7 (Revised 9-2022): the seller declares the odometer reading, the buyer acknowledges it',
      },
    ],
  },
});
