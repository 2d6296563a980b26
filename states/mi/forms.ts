/**
 * Michigan: TR-11L (official, flattened: no AcroForm fields) is the title
 * application; values are written at boxes measured from the form
 * (`pdftotext -bbox-layout` of the labels and the form's rules), in points
 * from the page's top-left corner. Fees and tax are the clerk's part.
 */
import { defineState } from '../standard.js';

export default defineState({
  code: 'MI',
  name: 'Michigan',
  agency: 'Michigan Department of State',
  templates: {
    form_title_application: {
      file: 'mi/TR-11L.pdf',
      name: 'TR-11L, Application for Michigan Vehicle Title',
      printed: 'TR-11L',
      url: 'https://www.michigan.gov/-/media/Project/Websites/sos/27lawensn/tr11L.pdf',
      // the revision the overlay was measured on (/work/shared/forms, SOURCES.md); another file is a different revision
      sha256: '0370e243a23643fbed58faeb6e96fd1d1cae33cee6bb550d3acab6e8571ea8c9',
      fields: [],
      overlay: [
        { text: 'YEAR', box: [32, 111.5, 79.5, 124.5], value: 'vehicle.year' },
        { text: 'MAKE', box: [86, 111.5, 183, 124.5], value: 'vehicle.make' },
        { text: 'MODEL', box: [190, 111.5, 327, 124.5], value: 'vehicle.model' },
        { text: 'VEHICLE IDENTIFICATION NUMBER', box: [334, 111.5, 480, 124.5], value: 'vehicle.vin' },
        { text: 'BODY STYLE', box: [32, 138.5, 120, 151.5], value: 'vehicle.body' },
        { text: 'EMPTY WEIGHT', box: [217, 139, 295.5, 151.5], value: 'vehicle.weight_empty' },
        { text: 'ODOMETER', box: [302, 138.5, 372, 151.5], value: 'title.odometer' },
        { text: "FIRST DRIVER'S LICENSE NO./ FEIN", box: [32, 165.5, 188, 178.5], value: 'owner1.dl_number' },
        { text: "SECOND DRIVER'S LICENSE NO./ FEIN", box: [194, 165.5, 359, 178.5], value: 'owner2.dl_number' },
        {
          text: 'NAME(S) AS IT WILL APPEAR ON CERTIFICATE OF TITLE AND REGISTRATION',
          box: [32, 193, 358, 232],
          value: 'owners_line',
          upper: true,
        },
        { text: 'ADDRESS', box: [32, 246.5, 264, 284], value: 'owner1.addr.one_line' },
        { text: 'MAILING ADDRESS', box: [271, 246.5, 480, 284], value: 'owner1.mailing_if_different.one_line' },
        { text: 'FIRST SECURED PARTY', box: [32, 303.5, 230, 350], value: 'lien.holder_name_addr' },
        { text: 'FILING DATE (first secured party)', box: [235, 303.5, 295, 320], value: 'lien.date' },
        { text: 'LIEN CODE ID (first secured party)', box: [235, 332.5, 295, 350], value: 'lien.elt_id' },
        { text: 'PURCHASE DATE', box: [284, 521, 370, 540], value: 'sale.date', if: 'txn.purchase' },
        { text: "SELLER'S NAME", box: [379, 521, 580, 540], value: 'seller.name', if: 'txn.ownership_change' },
      ],
    },
  },
});
