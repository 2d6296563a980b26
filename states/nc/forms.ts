/**
 * North Carolina: the official MVR-1 (title application), MVR-180 (odometer
 * disclosure, with the MVR-181 damage disclosure attached when ownership
 * changes), MVR-63 (power of attorney) and MVR-6T (lien recording) are filled
 * when found in a template folder; other forms are drawn.
 */
import { defineState } from '../standard.js';

const FORMS = 'https://www.ncdot.gov/dmv/title-registration/Pages/forms.aspx';
const vehicleRow = (year: string, make: string, body: string, model: string, vin: string) =>
  [
    { field: year, value: 'vehicle.year' },
    { field: make, value: 'vehicle.make' },
    { field: body, value: 'vehicle.body' },
    { field: model, value: 'vehicle.model' },
    { field: vin, value: 'vehicle.vin' },
  ] as const;

export default defineState({
  code: 'NC',
  name: 'North Carolina',
  agency: 'North Carolina Division of Motor Vehicles',
  templates: {
    form_title_application: {
      file: 'nc/MVR-1.pdf',
      name: 'MVR-1, Title Application',
      printed: 'MVR-1',
      url: 'https://www.ncdot.gov/dmv/downloads/Documents/MVR-1.pdf',
      sha256: 'b55523a32a202e951b73b5a10758b5e519583be64bac750dda755f53aab25dc3',
      fields: [
        ...vehicleRow(
          'Enter YEAR',
          'Enter MAKE',
          'Enter BODY STYLE',
          'Enter SERIES MODEL',
          'Enter VEHICLE IDENTIFICATION NUMBER',
        ),
        { field: 'Enter FUEL TYPE', value: 'vehicle.fuel' },
        { field: 'Enter ODOMETER READING', value: 'title.odometer' },
        { field: 'Enter Owner 1 ID Number', value: 'owner1.dl_number' },
        {
          field: 'Enter Full Legal Name of Owner 1 to include First, Middle, Last, Suffix or Company 1 Name',
          value: 'owner1.name',
        },
        { field: 'Enter Owner 2 ID Number', value: 'owner2.dl_number' },
        {
          field: 'Enter Full Legal Name of Owner 2 to include First, Middle, Last, Suffix or Company 2 Name',
          value: 'owner2.name',
        },
        {
          field:
            "Enter Street Address of Individual's Residence or Business/Firm to include apartment or suite numbers",
          value: 'owner1.addr.street',
        },
        { field: "Enter City of Individual's Residence or Business/Firm", value: 'owner1.addr.city' },
        { field: "Enter State of Individual's Residence or Business/Firm", value: 'owner1.addr.state' },
        { field: 'Enter Individual Residence or Business/Firm Zip Code', value: 'owner1.addr.zip' },
        { field: 'Enter Mailing Street Address if different from above', value: 'owner1.mailing_if_different.street' },
        { field: 'Enter Mailing City if different from above', value: 'owner1.mailing_if_different.city' },
        { field: 'Enter Mailing State if different from above', value: 'owner1.mailing_if_different.state' },
        { field: 'Enter Mailing Zip Code if different from above', value: 'owner1.mailing_if_different.zip' },
        { field: 'Enter Tax County', value: 'owner1.addr.county' },
        { field: 'Enter First Lien Account Number', value: 'loan.loan_id', if: 'lien.present' },
        { field: 'Enter Date of 1st Lien', value: 'lien.date' },
        { field: 'Enter First Lienholder ID Number', value: 'lien.elt_id' },
        { field: 'Enter 1st Lienholder Name', value: 'lien.holder_name' },
        {
          field: 'Enter 1st Lienholder Address to include Street and Apartment/Suite',
          value: 'lien.holder_addr.street',
        },
        { field: "Enter 1st Lienholder's City", value: 'lien.holder_addr.city' },
        { field: "Enter 1st Lienholder's State", value: 'lien.holder_addr.state' },
        { field: "Enter 1st Lienholder's Zip Code", value: 'lien.holder_addr.zip' },
        { field: 'Enter Name of Insurance Company authorized in NC', value: 'owner1.insurance_provider' },
        { field: 'Enter Insurance Policy Number', value: 'owner1.insurance_policy' },
        { check: 'CheckBox Vehicle Purchased New', when: 'sale.is_new' },
        { check: 'CheckBox Vehicle Purchased Used', when: ['sale.is_used', 'txn.purchase'] },
        { field: 'Enter Purchase Date', value: 'sale.date' },
        {
          field: 'Enter Name and Address From Whom you Purchased the Vehicle',
          value: ['seller.name', 'seller.addr.one_line'],
          join: ', ',
          if: 'txn.purchase',
        },
      ],
    },
    form_odometer_disclosure: {
      file: 'nc/MVR-180.pdf',
      name: 'MVR-180, Odometer Disclosure Statement',
      printed: 'MVR-180',
      url: 'https://www.ncdot.gov/dmv/downloads/Documents/MVR-180.pdf',
      sha256: '24ada2224c029b724359589533252389b00a55744367b924a7f059ef9a4eda17',
      fields: [
        ...vehicleRow('YEAR', 'MAKE', 'BODY STYLE', 'SERIES MODEL', 'VEHICLE IDENTIFICATION NUMBER'),
        { field: 'sellers printed name', value: 'seller.name' },
        { field: 'odometer now reads miles no tenths', value: 'title.odometer' },
        {
          check:
            'check box - I hereby certify that the odometer reading reflects the amount of mileage in excess of its',
          when: 'title.odometer_exceeds',
        },
        {
          check: 'checkbox - I hereby certify that the odometer reading is not the actual mileage WARNING ODOMETER',
          when: 'title.odometer_not_actual',
        },
        { field: 'SELLERS PRINTED NAME', value: 'seller.name' },
        { field: 'SELLERS street ADDRESS to include apartment or suite number', value: 'seller.addr.street' },
        { field: 'sellers CITY', value: 'seller.addr.city' },
        { field: 'sellers STATE', value: 'seller.addr.state' },
        { field: 'sellers ZIP CODE', value: 'seller.addr.zip' },
        { field: 'BUYERS PRINTED NAME', value: 'owner1.name' },
        { field: 'BUYERS street ADDRESS to include apartment or suite number', value: 'owner1.addr.street' },
        { field: 'buyers CITY', value: 'owner1.addr.city' },
        { field: 'buyers STATE', value: 'owner1.addr.state' },
        { field: 'buyers ZIP CODE', value: 'owner1.addr.zip' },
      ],
      attach: [
        {
          // every seller discloses known damage to the buyer (MVR-181's notice to seller): filed with the odometer statement
          file: 'nc/MVR-181.pdf',
          name: 'MVR-181, Damage Disclosure Statement',
          printed: 'MVR-181',
          url: 'https://www.ncdot.gov/dmv/downloads/Documents/MVR-181.pdf',
          sha256: '71234e4871b12b527efdfef9f3e2744fc89221fb2c36e835becfdfc96c8bbf38',
          when: 'txn.ownership_change',
          fields: [
            { field: 'Year', value: 'vehicle.year' },
            { field: 'Make', value: 'vehicle.make' },
            { field: 'Body Style', value: 'vehicle.body' },
            { field: 'Vehicle Identification Number', value: 'vehicle.vin' },
            {
              field: 'SELLERS ADDRESS to include street apartment or suite number city state zip',
              value: 'seller.addr.one_line',
            },
          ],
        },
      ],
    },
    forms_poa: {
      file: 'nc/MVR-63.pdf',
      name: 'MVR-63, Power of Attorney',
      printed: 'MVR-63',
      url: 'https://www.ncdot.gov/dmv/downloads/Documents/MVR-63.pdf',
      sha256: '646738a3993376aa0c27f9bcde11ddb155ebca219c5a128856aa0486517b701e',
      fields: [
        { field: 'Buyer, Seller or Legal Owner', value: 'signer.name' },
        { field: 'Vehicle Make', value: 'vehicle.make' },
        { field: 'Vehicle Type', value: 'vehicle.body' },
        { field: 'Motor Number', value: 'vehicle.engine_number' },
        { field: 'Serial Number', value: 'vehicle.vin' },
        { field: 'Year Built', value: 'vehicle.year' },
        { field: 'Model', value: 'vehicle.model' },
        { field: 'POA Name', value: 'grantee' },
      ],
    },
    form_lien_add: {
      file: 'nc/MVR-6T.pdf',
      name: 'MVR-6T, Temporary Lien Recording Application',
      printed: 'MVR-6T',
      url: 'https://www.ncdot.gov/dmv/downloads/Documents/MVR-6T.pdf',
      sha256: 'b8e2a628bbe9771fbfc83d7b90ed303598331723844a8b6b6e6188cf32487a92',
      fields: [
        ...vehicleRow('Text1', 'Text2', 'Text3', 'Text4', 'Text5'),
        { field: 'Text6', value: 'vehicle.fuel' },
        { field: 'Owner 1 ID', value: 'owner1.dl_number' },
        { field: 'Full Legal Name of Owner 1 First Middle Last Suffix or Company Name', value: 'owner1.name' },
        { field: 'Owner 2 ID', value: 'owner2.dl_number' },
        { field: 'Full Legal Name of Owner 2 First Middle Last Suffix or Company Name', value: 'owner2.name' },
        { field: 'Residence Address Individual Business Address Firm', value: 'owner1.addr.street' },
        { field: 'Text7', value: ['owner1.addr.city', 'owner1.addr.state'], join: ', ' },
        { field: 'Text8', value: 'owner1.addr.zip' },
        { field: 'Text9', value: 'owner1.addr.county' },
        { field: 'Mail Address if different from above', value: 'owner1.mailing_if_different.one_line' },
        { field: 'Text13', value: 'lien.date' },
        { field: 'FIRST LIEN Account  Maturity Date MH Date of Lien', value: 'loan.loan_id' },
        { field: 'Lienholder Name', value: 'lien.holder_name' },
        { field: 'Address', value: 'lien.holder_addr.street' },
        { field: 'Text10', value: 'lien.holder_addr.city' },
        { field: 'Text11', value: 'lien.holder_addr.state' },
        { field: 'Text12', value: 'lien.holder_addr.zip' },
      ],
    },
  },
  rules: {
    sources: [
      { url: FORMS, date: '2026-11-25', note: 'NCDMV title and registration forms (MVR-1, MVR-180, MVR-63, MVR-6T)' },
    ],
  },
});
