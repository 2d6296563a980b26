/**
 * Idaho: the official Bill of Sale (ITD-3738), which carries the odometer
 * reading and its brands, is the odometer document of a purchase when found
 * in a template folder; otherwise (and for other transactions) the odometer
 * disclosure is drawn. Other forms are drawn.
 */
import { defineState } from '../standard.js';

const URL = 'https://itd.idaho.gov/wp-content/uploads/2016/06/itd3738.pdf';

export default defineState({
  code: 'ID',
  name: 'Idaho',
  agency: 'Idaho Transportation Department, Division of Motor Vehicles',
  templates: {
    form_odometer_disclosure: {
      file: 'id/ITD-3738.pdf',
      name: 'ITD 3738, Bill of Sale (with odometer reading)',
      printed: 'ITD 3738',
      url: URL,
      sha256: '73aecdb0fdbbe8882cebeebd77080d1411471c079c91a50907da704dd4511202',
      when: 'txn.purchase',
      fields: [
        { field: 'Vehicle or Hull Identification Number', value: 'vehicle.vin' },
        { field: 'Title Number', value: 'title.number' },
        { field: 'Weight', value: 'vehicle.weight_empty' },
        { field: 'Vehicle Year', value: 'vehicle.year' },
        { field: 'Vehicle Make', value: 'vehicle.make' },
        { field: 'Vehicle Model', value: 'vehicle.model' },
        { field: 'Description', value: ['vehicle.body', 'vehicle.color'], join: ', ' },
        { field: 'Odometer Reading', value: 'title.odometer' },
        { check: 'Actual Miles', when: 'title.odometer_actual' },
        { check: 'Not Actual', when: 'title.odometer_not_actual' },
        { check: 'Exceeds Mechanical Limits', when: 'title.odometer_exceeds' },
        { check: 'Exempt', when: 'title.odometer_exempt' },
        { field: 'Sellers Full Legal Printed Name', value: 'seller.name' },
        { field: 'Physical Address', value: 'seller.addr.street' },
        { field: 'City', value: 'seller.addr.city' },
        { field: 'State', value: 'seller.addr.state' },
        { field: 'Zip Code', value: 'seller.addr.zip' },
        { field: 'Mailing Address If different than physical address', value: 'seller.mailing_if_different.street' },
        { field: 'City_3', value: 'seller.mailing_if_different.city' },
        { field: 'State_3', value: 'seller.mailing_if_different.state' },
        { field: 'Zip Code_3', value: 'seller.mailing_if_different.zip' },
        { field: 'Daytime Phone Number', value: 'seller.phone' },
        { field: 'Buyers Full Legal Printed Name', value: 'owners_line' },
        { field: 'Idaho Drivers License Number or SSN  EIN if Business', value: 'owner1.dl_number' },
        { field: 'Physical Address_2', value: 'owner1.addr.street' },
        { field: 'City_2', value: 'owner1.addr.city' },
        { field: 'State_2', value: 'owner1.addr.state' },
        { field: 'Zip Code_2', value: 'owner1.addr.zip' },
        { field: 'Mailing Address If different than physical address_2', value: 'owner1.mailing_if_different.street' },
        { field: 'City_4', value: 'owner1.mailing_if_different.city' },
        { field: 'State_4', value: 'owner1.mailing_if_different.state' },
        { field: 'Zip Code_4', value: 'owner1.mailing_if_different.zip' },
        { field: 'Daytime Phone Number_2', value: 'owner1.phone' },
        { field: 'True Selling Price', value: 'sale.price' },
        { field: 'Sale Date', value: 'sale.date' },
        { field: 'New Lienholder Name or None', value: 'lien.holder_name_or_none' },
        { field: 'Address', value: 'lien.holder_addr.street' },
        { field: 'City_5', value: 'lien.holder_addr.city' },
        { field: 'State_5', value: 'lien.holder_addr.state' },
        { field: 'Zip Code_5', value: 'lien.holder_addr.zip' },
      ],
    },
  },
  rules: {
    sources: [
      {
        url: URL,
        date: '2026-11-25',
        note: 'ITD 3738 (Rev. 10/23): the bill of sale records the odometer reading and its brands',
      },
    ],
  },
});
