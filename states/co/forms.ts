/**
 * Colorado: DR 2395 (official, flattened: no AcroForm fields) is the title
 * application; values are written at boxes measured from the form
 * (`pdftotext -bbox-layout` of the labels and the form's ruled boxes), in
 * points from the page's top-left corner. Every page repeats the VIN comb.
 * DR 2116 (bill of sale for a purged Colorado record) is not filed: see README.
 */
import { defineState } from '../standard.js';

const vin = (page: number, top: number) => ({ text: `Vehicle Identification Number (V I N) (page ${page + 1})`, page, box: [36.5, top + 0.5, 576, top + 23] as const, value: 'vehicle.vin' as const, comb: 17 });

export default defineState({
  code: 'CO',
  name: 'Colorado',
  agency: 'Colorado Division of Motor Vehicles',
  templates: {
    form_title_application: {
      file: 'co/DR-2395.pdf',
      name: 'DR 2395, Application for Title and/or Registration',
      printed: 'DR 2395',
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
        { text: 'Legal Name(s) as it Appears on Identification of Owner(s)', box: [37.5, 493.5, 575, 514], value: 'owners_line', upper: true },
        { text: 'Address of Owner(s)', box: [37.5, 529.5, 575, 550], value: 'owner1.addr.one_line' },
        { text: 'Owner / Lessee Mailing Address (if different from legal address)', box: [37.5, 661.5, 575, 682], value: 'owner1.mailing_if_different.one_line' },
        { text: 'First Lienholder Name', box: [37.5, 697.5, 575, 718], value: 'lien.holder_name' },
        { text: 'Address or ELT E-Number', box: [37.5, 733.5, 481.5, 754.5], value: 'lien.holder_addr.one_line' },
        { text: 'Lien Amount', box: [491, 733.5, 575, 754.5], value: 'lien.amount' },
        vin(1, 48),
        { text: 'Printed Name of Owner as it Appears on Identification', page: 1, box: [37.5, 481.5, 575, 502], value: 'owner1.name', upper: true },
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
