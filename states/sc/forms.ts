/**
 * South Carolina: the official Title and/or Registration Application (Form
 * 400), whose section 2 holds the odometer disclosure, is filled when found
 * in a template folder; other forms are drawn.
 */
import { defineState } from '../standard.js';

const URL = 'https://www.scdmvonline.com/-/media/Forms/400.ashx';

export default defineState({
  code: 'SC',
  name: 'South Carolina',
  agency: 'South Carolina Department of Motor Vehicles',
  templates: {
    form_title_application: {
      file: 'sc/400.pdf',
      name: 'Form 400, Title and/or Registration Application',
      printed: '400',
      url: URL,
      sha256: '2d88d4bd3d8a3e0c473483d02f3462eaac2f9768002d24fe16a542e74968ea13',
      fields: [
        { check: 'TITLE', when: 'txn.new_title' },
        { check: 'RECORD LIEN', when: 'lien.present' },
        { check: 'DUPLICATE TITLE', when: 'txn.duplicate_only' },
        { check: 'LOW SPEED VEHICLE', when: 'vehicle.is_low_speed' },
        { field: 'VEHICLE IDENTIFICATION NUMBER VIN', value: 'vehicle.vin' },
        { field: 'MAKE', value: 'vehicle.make' },
        { field: 'MODEL', value: 'vehicle.model' },
        { field: 'YEAR', value: 'vehicle.year' },
        { field: 'BODY STYLE', value: 'vehicle.body' },
        { field: 'EMPTY WEIGHT', value: 'vehicle.weight_empty' },
        { field: 'NEW PRIMARY OWNERLESSEE COMPLETE LEGAL NAME LAST FIRST MIDDLE', value: 'owner1.name_lfm' },
        { field: 'CUSTOMER NO DL NO SSN OR FEIN', value: 'owner1.dl_number' },
        { field: 'DATE OF BIRTH', value: 'owner1.dob' },
        { field: 'NEW COOWNERLESSEE COMPLETE LEGAL NAME LAST FIRST MIDDLE', value: 'owner2.name_lfm' },
        { check: 'AND or', when: ['owner2.present', 'title.owners_and'] },
        { check: 'OR', when: ['owner2.present', 'title.owners_or'] },
        { field: 'CUSTOMER NO DL NO SSN OR FEIN_2', value: 'owner2.dl_number' },
        { field: 'DATE OF BIRTH_2', value: 'owner2.dob' },
        { field: 'PRIMARY OWNERSLESSEE RESIDENCE ADDRESS APT NO IF APPLICABLE', value: 'owner1.addr.street' },
        { field: 'CITY', value: 'owner1.addr.city' },
        { field: 'STATE', value: 'owner1.addr.state' },
        { field: 'ZIP CODE', value: 'owner1.addr.zip' },
        { field: 'COUNTY', value: 'owner1.addr.county' },
        { field: 'MAILING ADDRESS IF DIFFERENT FROM ABOVE', value: 'owner1.mailing_if_different.street' },
        { field: 'CITY_2', value: 'owner1.mailing_if_different.city' },
        { field: 'STATE_2', value: 'owner1.mailing_if_different.state' },
        { field: 'ZIP CODE_2', value: 'owner1.mailing_if_different.zip' },
        { field: 'COUNTY_2', value: 'owner1.mailing_if_different.county' },
        { field: 'PHONE NUMBER', value: 'owner1.phone' },
        // section 2: odometer disclosure
        { field: 'I STATE THAT THE ODOMETER NOW READS', value: 'title.odometer' },
        { check: 'EXEMPT', when: 'title.odometer_exempt' },
        {
          check:
            'I CERTIFY THAT TO THE BEST OF MY KNOWLEDGE THE ODOMETER READING REFLECTS THE AMOUNT OF MILEAGE IN EXCESS OF ITS',
          when: 'title.odometer_exceeds',
        },
        {
          check: 'I CERTIFY THAT THE ODOMETER READING IS NOT THE ACTUAL MILEAGE WARNING ODOMETER DISCREPANCY',
          when: 'title.odometer_not_actual',
        },
        // lienholder (first lien)
        { field: 'CUSTOMER NO OR FEIN', value: 'lien.feid' },
        { field: 'LIENHOLDER NAME FIRST LIEN', value: 'lien.holder_name' },
        { field: 'DATE OF LIEN', value: 'lien.date' },
        { field: 'CONTACT PERSON_2', value: 'lien.signatory.name' },
        { field: 'PHONE NUMBER_3', value: 'lien.holder_phone' },
        { field: 'MAILING ADDRESS', value: 'lien.holder_addr.street' },
        { field: 'CITY_5', value: 'lien.holder_addr.city' },
        { field: 'STATE_4', value: 'lien.holder_addr.state' },
        { field: 'ZIP CODE_5', value: 'lien.holder_addr.zip' },
        // page 2: prior title, seller, purchase, insurance, printed names
        { field: 'PRIOR TITLE STATE', value: 'title.issuing_state' },
        { field: 'PRIOR TITLE NUMBER', value: 'title.number' },
        { field: 'SELLER OR DEALER NAME', value: 'seller.name', if: 'txn.purchase' },
        { field: 'ADDRESS_2', value: 'seller.addr.street', if: 'txn.purchase' },
        { field: 'CITY_7', value: 'seller.addr.city', if: 'txn.purchase' },
        { field: 'STATE_6', value: 'seller.addr.state', if: 'txn.purchase' },
        { field: 'ZIP CODE_7', value: 'seller.addr.zip', if: 'txn.purchase' },
        { check: 'NEW or', when: 'sale.is_new' },
        { check: 'USED', when: ['sale.is_used', 'txn.purchase'] },
        { field: 'DATE OF PURCHASE', value: 'sale.date' },
        { field: 'SALES PRICE', value: 'sale.price' },
        { field: 'INSURANCE COMPANY', value: 'owner1.insurance_provider' },
        { field: 'OWNER', value: 'owner1.name' },
        { field: 'COOWNER', value: 'owner2.name' },
      ],
    },
  },
  rules: {
    sources: [
      {
        url: URL,
        date: '2026-11-25',
        note: 'Form 400 (Rev. 07/2025) section 2 is the odometer disclosure of a title transaction',
      },
    ],
  },
});
