/**
 * Montana: the Motor Vehicle Division's Bill of Sale (MV24, fillable) is filed
 * with the title application of a purchase (`form_bill_of_sale`, beyond the
 * standard table). Other forms are the standard ones, drawn. See README.md.
 */
import { STANDARD_FORMS, defineState } from '../standard.js';

const URL = 'https://mvdmt.gov/wp-content/uploads/2023/10/MV24-Bill-of-Sale-Fillable.pdf';

export default defineState({
  code: 'MT',
  name: 'Montana',
  agency: 'Montana Department of Justice, Motor Vehicle Division',
  forms: { purchase: [...STANDARD_FORMS.purchase, 'form_bill_of_sale'] },
  templates: {
    form_bill_of_sale: {
      file: 'mt/MV24.pdf',
      name: 'MV24, Bill of Sale',
      printed: 'MV24',
      url: URL,
      sha256: '7635d1c187f3e76698800ee8562fb2edb5e3d0cd436a2eb29ed80ddc1687b772',
      fields: [
        { field: 'Sum Received', value: 'sale.price' },
        // one field, two widgets: the purchaser named at the top and the purchaser's printed name
        { field: 'Purchaser_Name', value: 'owners_line' },
        { field: 'Purchaser_DL/FEIN/Tribal ID/Corp ID', value: 'owner1.dl_number' },
        { field: 'Purchaser_Address', value: 'owner1.addr.one_line' },
        { field: 'Year', value: 'vehicle.year' },
        { field: 'Make', value: 'vehicle.make' },
        { field: 'Model', value: 'vehicle.model' },
        { field: 'Vehicle/Hull ID Number', value: 'vehicle.vin' },
        // "No" certifies a vehicle that is not mechanically functional: only "Yes" is the entry's to say
        { radio: 'Title Available?', choose: [{ option: 'Yes', when: 'title.is_available' }] },
        { field: 'Sellers_Printed Name', value: 'seller.name' },
        { field: 'Seller_DL/FEIN/Tribal ID/Corp ID', value: 'seller.dl_number' },
        { field: 'Sellers_Address', value: 'seller.addr.one_line' },
      ],
    },
  },
});
