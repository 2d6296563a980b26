/**
 * Illinois: VSD 190 (official, flattened: a scanned page with a text layer, no
 * AcroForm fields) is the application for vehicle transactions; values are
 * written at boxes measured from the form (`pdftotext -bbox-layout` of the
 * labels and the form's rules), in points from the page's top-left corner.
 * The page is 612 x 1013 pt (legal-like).
 */
import { defineState } from '../standard.js';

export default defineState({
  code: 'IL',
  name: 'Illinois',
  agency: 'Illinois Secretary of State, Vehicle Services Department',
  templates: {
    form_title_application: {
      file: 'il/VSD-190.pdf',
      name: 'VSD 190, Application for Vehicle Transaction(s)',
      printed: 'VSD 190',
      url: 'https://www.ilsos.gov/publications/pdf_publications/vsd190.pdf',
      // the revision the overlay was measured on (/work/shared/forms, SOURCES.md); another file is a different revision
      sha256: '0915ac5ca205098d93dc5f987afcc24be84c2c159d0fb94a9e092246149e61ab',
      fields: [],
      overlay: [
        { mark: '1. Title Only', box: [25.5, 79.5, 34.5, 89], when: 'txn.new_title' },
        { mark: '1. Duplicate Title', box: [25.5, 93.5, 35, 103], when: 'txn.duplicate_title' },
        { mark: '1. Corrected Title', box: [25.5, 107.5, 35, 117], when: 'txn.lien_only' },
        { text: '5. Owner 1 First', box: [183, 139, 326, 150], value: 'owner1.first' },
        { text: '5. Owner 1 Last', box: [331, 139, 536, 150], value: 'owner1.last' },
        { text: '5. Owner 1 Middle', box: [562, 140, 592, 150], value: 'owner1.middle' },
        { text: '5. Owner 2 First', box: [183, 163.5, 326, 174], value: 'owner2.first' },
        { text: '5. Owner 2 Last', box: [344, 163.5, 536, 174], value: 'owner2.last' },
        { text: '5. Owner 2 Middle', box: [562, 163.5, 592, 174], value: 'owner2.middle' },
        { text: '5. Residence/Business Street Address', box: [183, 187.5, 478, 198], value: 'owner1.addr.street' },
        { text: '5. City', box: [197, 211.5, 370, 222], value: 'owner1.addr.city' },
        { text: '5. ZIP', box: [387, 211, 478, 222.5], value: 'owner1.addr.zip' },
        { text: '6. Owner 1 DL/FEIN #', box: [446, 225, 592, 246.5], value: 'owner1.dl_number' },
        { text: '6. Owner 2 DL/FEIN #', box: [446, 249, 592, 269], value: 'owner2.dl_number' },
        { text: '7. Vehicle Identification Number (VIN)', box: [183, 299, 592, 318], value: 'vehicle.vin' },
        { text: '7. Year', box: [198, 320, 230, 341], value: 'vehicle.year' },
        { text: '7. Make', box: [252, 320, 331, 341], value: 'vehicle.make' },
        { text: '7. Model', box: [356, 320, 437, 341], value: 'vehicle.model' },
        { text: '7. Body Style', box: [477, 320, 515, 341], value: 'vehicle.body' },
        { text: '7. Color', box: [540, 320, 592, 341], value: 'vehicle.color' },
        { text: '8. Purchase Date Month', box: [22, 319, 53, 334], value: 'sale.date_mm', if: 'txn.purchase' },
        { text: '8. Purchase Date Day', box: [58, 319, 84, 334], value: 'sale.date_dd', if: 'txn.purchase' },
        { text: '8. Purchase Date Year', box: [88, 319, 130, 334], value: 'sale.date_yyyy', if: 'txn.purchase' },
        { mark: '8. New', box: [166, 309.5, 174.5, 317], when: ['txn.purchase', 'sale.is_new'] },
        { mark: '8. Used', box: [166, 325, 174.5, 333], when: ['txn.purchase', 'sale.is_used'] },
        { text: '9. Current Odometer Reading (No Tenths)', box: [22, 363, 130, 389], value: 'title.odometer' },
        { mark: '9. Actual', box: [135, 345.5, 142.5, 352], when: 'title.odometer_actual' },
        { mark: '9. Not Actual', box: [189, 345.5, 196.5, 352], when: 'title.odometer_not_actual' },
        { mark: '9. In Excess of Mechanical Limits', box: [135, 357, 142.5, 363.5], when: 'title.odometer_exceeds' },
        {
          mark: '9. 10 years or older (mileage not required)',
          box: [135, 368.5, 142.5, 375],
          when: 'title.odometer_exempt',
        },
        { text: '10. Surrender Title Number', box: [30, 402, 196, 413.5], value: 'title.number' },
        { text: '10. Surrender Title State', box: [220, 402, 247, 413.5], value: 'title.issuing_state' },
        {
          text: '13. Mail title to: Street Address',
          box: [70, 448, 306, 464],
          value: 'owner1.mailing_if_different.street',
        },
        { text: '13. Mail title to: City', box: [37, 466, 161, 482], value: 'owner1.mailing_if_different.city' },
        { text: '13. Mail title to: State', box: [182, 466, 233, 482], value: 'owner1.mailing_if_different.state' },
        { text: '13. Mail title to: ZIP', box: [250, 466, 306, 482], value: 'owner1.mailing_if_different.zip' },
        { text: '14. Insurance Company Name', box: [400, 430, 595, 446], value: 'owner1.insurance_provider' },
        { text: '14. Policy Number', box: [362, 448, 595, 464], value: 'owner1.insurance_policy' },
        { text: '15. First Lienholder Name', box: [44, 499, 306, 514.5], value: 'lien.holder_name' },
        { text: '15. First Lienholder Street Address', box: [71, 517, 306, 532.5], value: 'lien.holder_addr.street' },
        { text: '15. First Lienholder City', box: [37, 535, 161, 550.5], value: 'lien.holder_addr.city' },
        { text: '15. First Lienholder State', box: [182, 535, 233, 550.5], value: 'lien.holder_addr.state' },
        { text: '15. First Lienholder ZIP', box: [250, 535, 306, 550.5], value: 'lien.holder_addr.zip' },
        { text: "18. Seller's Name", box: [334, 567, 450, 583], value: 'seller.name', if: 'txn.ownership_change' },
        {
          text: "18. Seller's Address",
          box: [340, 585, 595, 601],
          value: 'seller.addr.one_line',
          if: 'txn.ownership_change',
        },
        { text: '23. Daytime Phone Number (optional)', box: [143, 738.5, 306, 756], value: 'owner1.phone' },
      ],
    },
  },
});
