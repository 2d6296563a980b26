/**
 * Colorado: DR 2395 (official, flattened: no AcroForm fields) is the title
 * application; values are written at boxes measured from the form
 * (`pdftotext -bbox-layout` of the labels and the form's ruled boxes), in
 * points from the page's top-left corner. Every page repeats the VIN comb.
 * DR 2116 (fillable: bill of sale for a purged Colorado record) is the
 * `form_bill_of_sale` of a lost Colorado title: "sell the vehicle" with a
 * sale, "re-establish the ownership document" without one. A title from
 * another state needs none (`only`: left out, not drawn). See README.
 */
import { STANDARD_FORMS, defineState } from '../standard.js';

const vin = (page: number, top: number) => ({
  text: `Vehicle Identification Number (V I N) (page ${page + 1})`,
  page,
  box: [36.5, top + 0.5, 576, top + 23] as const,
  value: 'vehicle.vin' as const,
  comb: 17,
});

export default defineState({
  code: 'CO',
  name: 'Colorado',
  agency: 'Colorado Division of Motor Vehicles',
  forms: { duplicate_title: [...STANDARD_FORMS.duplicate_title, 'form_bill_of_sale'] },
  templates: {
    form_bill_of_sale: {
      file: 'co/DR-2116.pdf',
      name: 'DR 2116, Motor Vehicle Bill of Sale for Purged Colorado Record',
      printed: 'DR 2116',
      url: 'https://dmv.colorado.gov/sites/dmv/files/documents/DR2116.pdf',
      sha256: 'ab392b8fdf9b31d97e02dc7c514c4b86db9e3a8ec0b3fc077d9ed6560909c0f0',
      when: 'title.is_in_state',
      only: true,
      // the form numbers its fields 1-21 in reading order; the comments name the printed labels
      fields: [
        {
          radio: 'Purged Colorado Record',
          choose: [
            { option: 'Sell the vehicle or', when: 'txn.purchase' },
            { option: 'Re-establish the ownership', when: 'always' },
          ],
        },
        { field: '1', value: 'vehicle.vin' }, // Vehicle Identification Number (VIN)
        { field: '2', value: 'vehicle.year' }, // Year
        { field: '3', value: 'vehicle.make' }, // Make
        { field: '4', value: 'vehicle.body' }, // Body Style
        { field: '5', value: 'sale.date', if: 'txn.purchase' }, // Date of Sale
        { field: '6', value: 'sale.price', if: 'txn.purchase' }, // Amount of Sale
        { field: '7', value: 'title.number' }, // Title Number (if known)
        { field: '8', value: 'owner1.name' }, // Printed Name of Buyer or Current Owner
        { field: '9', value: 'owner2.name' }, // Printed Name of Buyer or Current Owner (second)
        { field: '10', value: 'owner1.addr.street' }, // Address
        { field: '11', value: 'owner1.addr.city' }, // City
        { field: '12', value: 'owner1.addr.state' }, // State
        { field: '13', value: 'owner1.addr.zip' }, // ZIP
        { field: '14', value: 'seller.name', if: 'txn.purchase' }, // Printed Name of seller
        { field: '18', value: 'seller.addr.street', if: 'txn.purchase' }, // Address of seller
        { field: '19', value: 'seller.addr.city', if: 'txn.purchase' }, // City
        { field: '20', value: 'seller.addr.state', if: 'txn.purchase' }, // State
        { field: '21', value: 'seller.addr.zip', if: 'txn.purchase' }, // ZIP
      ],
    },
    form_title_application: {
      file: 'co/DR-2395.pdf',
      name: 'DR 2395, Application for Title and/or Registration',
      printed: 'DR 2395',
      url: 'https://dmv.colorado.gov/sites/dmv/files/documents/DR2395_0.pdf',
      // the revision the overlay was measured on (/work/shared/forms, SOURCES.md); another file is a different revision
      sha256: 'c07ee9390a9a8f6efc2ac5921943e777eed8d3f6d4a47498308777740810ce8f',
      fields: [],
      overlay: [
        vin(0, 120),
        { text: 'Year', box: [37.5, 157.5, 150, 178.5], value: 'vehicle.year' },
        { text: 'Make', box: [159.5, 157.5, 287, 178.5], value: 'vehicle.make' },
        { text: 'Model', box: [296.5, 157.5, 427, 178.5], value: 'vehicle.model' },
        { text: 'Odometer Reading', box: [433.5, 157.5, 575, 178.5], value: 'title.odometer' },
        { text: 'Body', box: [37.5, 193.5, 150, 214.5], value: 'vehicle.body' },
        { text: 'Color', box: [159.5, 193.5, 287, 214.5], value: 'vehicle.color' },
        { text: 'CWT (Empty Weight)', box: [296.5, 193.5, 427, 214.5], value: 'vehicle.weight_empty' },
        { text: 'Fuel Type', box: [37.5, 229.5, 150, 250.5], value: 'vehicle.fuel' },
        { text: 'Date Purchased', box: [318.5, 229.5, 452, 250.5], value: 'sale.date', if: 'txn.purchase' },
        { mark: 'Off-Highway Vehicle: Yes', box: [485.5, 289.5, 494.5, 298.5], when: 'vehicle.is_ohv' },
        {
          text: 'Legal Name(s) as it Appears on Identification of Owner(s)',
          box: [37.5, 493.5, 575, 514],
          value: 'owners_line',
          upper: true,
        },
        { text: 'Address of Owner(s)', box: [37.5, 529.5, 575, 550], value: 'owner1.addr.one_line' },
        {
          text: 'Owner / Lessee Mailing Address (if different from legal address)',
          box: [37.5, 661.5, 575, 682],
          value: 'owner1.mailing_if_different.one_line',
        },
        { text: 'First Lienholder Name', box: [37.5, 697.5, 575, 718], value: 'lien.holder_name' },
        { text: 'Address or ELT E-Number', box: [37.5, 733.5, 481.5, 754.5], value: 'lien.holder_addr.one_line' },
        { text: 'Lien Amount', box: [491, 733.5, 575, 754.5], value: 'lien.amount' },
        vin(1, 48),
        {
          text: 'Printed Name of Owner as it Appears on Identification',
          page: 1,
          box: [37.5, 481.5, 575, 502],
          value: 'owner1.name',
          upper: true,
        },
        { text: 'ID Number', page: 1, box: [37.5, 601.5, 236.5, 622.5], value: 'owner1.dl_number' },
        { text: 'Date of Birth', page: 1, box: [419, 601.5, 575, 622.5], value: 'owner1.dob' },
        vin(2, 48),
      ],
    },
  },
  rules: {
    poaFields: ['dob'],
    sources: [{ doc: 'spec/title-service-spec.md, POST /poa', note: 'DOB only in Arizona, Florida, Colorado' }],
  },
});
