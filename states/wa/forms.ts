/**
 * Washington: TD-420-001 (official, flattened: no AcroForm fields; the
 * drop-down lists of the fillable original survive as hidden text) is the
 * title application; values are written at boxes measured from the form
 * (`pdftotext -bbox-layout` of the labels and the form's rules), in points
 * from the page's top-left corner, clear of the hidden list text.
 */
import { defineState } from '../standard.js';

export default defineState({
  code: 'WA',
  name: 'Washington',
  agency: 'Washington State Department of Licensing',
  templates: {
    form_title_application: {
      file: 'wa/TD-420-001.pdf',
      name: 'TD-420-001, Vehicle Title Application',
      printed: 'TD-420-001',
      url: 'https://dol.wa.gov/forms/420001.pdf',
      // the revision the overlay was measured on (/work/shared/forms, SOURCES.md); another file is a different revision
      sha256: 'ba2a8b5393c9d4773e7c5ea2485f9f414d27d22f635ee32b5a18b14f70cf9ea3',
      fields: [],
      overlay: [
        { text: 'Vehicle identification number (VIN)', box: [27, 83.2, 200, 95.5], value: 'vehicle.vin' },
        { mark: 'Condition: New', box: [204, 83.5, 213, 92], when: ['sale.present', 'sale.is_new'] },
        { mark: 'Condition: Used', box: [238, 83.5, 246.5, 92], when: ['sale.present', 'sale.is_used'] },
        { text: 'Model year', box: [27, 106.5, 65, 119.5], value: 'vehicle.year' },
        { text: 'Make', box: [69, 106.5, 200, 119.5], value: 'vehicle.make' },
        { text: 'Model', box: [204, 106.5, 344, 119.5], value: 'vehicle.model' },
        { text: 'Body style', box: [375, 106.5, 489, 119.5], value: 'vehicle.body' },
        { text: 'Color #1', box: [300, 131, 381, 140.4], value: 'vehicle.color' },
        { text: 'Purchase price', box: [522, 131.5, 586, 143.5], value: 'sale.price', if: 'txn.purchase' },
        { text: 'Owner 1 Driver license/ID/TIN/EIN/UBI no', box: [201, 218.2, 323, 230.8], value: 'owner1.dl_number' },
        { text: 'Owner 1 (Area code) phone number', box: [480, 218.2, 584, 230.8], value: 'owner1.phone' },
        {
          text: 'Registered owner full name (Last, First, Middle, Suffix)',
          box: [27, 242.6, 584, 255.5],
          value: 'owner1.name_lfm',
        },
        { text: 'Washington primary residence address', box: [27, 265.3, 584, 278.5], value: 'owner1.addr.one_line' },
        {
          text: 'Mailing address, if different than residence address',
          box: [27, 290.2, 584, 302.5],
          value: 'owner1.mailing_if_different.one_line',
        },
        { text: 'Email address', box: [27, 338.2, 305, 349.5], value: 'owner1.email' },
        { text: 'Owner 2 Driver license/ID/TIN/EIN/UBI no', box: [309, 361.2, 424, 375.8], value: 'owner2.dl_number' },
        { text: 'Owner 2 (Area code) phone number', box: [495, 361.2, 584, 375.8], value: 'owner2.phone' },
        {
          text: 'Owner 2 Registered owner full name (Last, First, Middle, Suffix)',
          box: [27, 387.6, 584, 397.5],
          value: 'owner2.name_lfm',
        },
        { text: 'Name of legal owner/lienholder', box: [27, 436.3, 584, 449], value: 'lien.holder_name' },
        {
          text: 'Legal owner/lienholder mailing address',
          box: [27, 484.6, 584, 496.5],
          value: 'lien.holder_addr.one_line',
        },
        { text: 'Sale date', box: [324, 523.3, 383, 537], value: 'sale.date', if: 'txn.purchase' },
      ],
    },
  },
});
