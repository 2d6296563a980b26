/**
 * Kansas: the Department of Revenue's Bill of Sale (TR-312, fillable), an
 * affidavit of the purchase price, is filed with the title application of a
 * purchase (`form_bill_of_sale`, beyond the standard table). Other forms are
 * the standard ones, drawn. See README.md.
 */
import { STANDARD_FORMS, defineState } from '../standard.js';

const URL = 'https://www.ksrevenue.gov/pdf/tr312.pdf';

export default defineState({
  code: 'KS',
  name: 'Kansas',
  agency: 'Kansas Department of Revenue, Division of Vehicles',
  forms: { purchase: [...STANDARD_FORMS.purchase, 'form_bill_of_sale'] },
  templates: {
    form_bill_of_sale: {
      file: 'ks/TR-312.pdf',
      name: 'TR-312, Bill of Sale',
      printed: 'TR-312',
      url: URL,
      sha256: '978ecc7da001de897d39cc42bad3c5a270dedbbafe7d8d92acb8fa99e0ff3c42',
      fields: [
        { field: 'PrintedNameSeller', value: 'seller.name' },
        { field: 'Seller Street Address', value: 'seller.addr.street' },
        { field: 'Seller City', value: 'seller.addr.city' },
        { field: 'Seller State', value: 'seller.addr.state' },
        { field: 'Seller Zip', value: 'seller.addr.zip' },
        { field: 'Printed Name Buyer', value: 'owners_line' },
        { field: 'Buyer Street Address', value: 'owner1.addr.street' },
        { field: 'Buyer City', value: 'owner1.addr.city' },
        { field: 'Buyer State', value: 'owner1.addr.state' },
        { field: 'Buyer Zip', value: 'owner1.addr.zip' },
        { field: 'Vehicle Year', value: 'vehicle.year' },
        { field: 'Vehicle Make', value: 'vehicle.make' },
        { field: 'Vehicle ID Number', value: 'vehicle.vin' },
        { field: 'Purchase Price', value: 'sale.price' },
        { field: 'Date of Sale', value: 'sale.date' },
      ],
    },
  },
});
