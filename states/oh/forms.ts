/**
 * Ohio: BMV 3774 (official, flattened: no AcroForm fields) is the title
 * application; values are written at boxes measured from the form
 * (`pdftotext -bbox-layout` of the labels and the form's rules), in points
 * from the page's top-left corner.
 */
import { defineState } from '../standard.js';

export default defineState({
  code: 'OH',
  name: 'Ohio',
  agency: 'Ohio Bureau of Motor Vehicles',
  templates: {
    form_title_application: {
      file: 'oh/BMV-3774.pdf',
      name: 'BMV 3774, Application(s) for Certificate of Title to a Motor Vehicle',
      printed: 'BMV 3774',
      url: 'https://dam.assets.ohio.gov/image/upload/publicsafety.ohio.gov/bmv3774.pdf',
      // the revision the overlay was measured on (/work/shared/forms, SOURCES.md); another file is a different revision
      sha256: '739e90e6692ddac3e2e5126e0ff4daebf2cd199be25fe6c4dbfdb9a1a2b6bdb1',
      fields: [],
      overlay: [
        { text: "APPLICANT'S PRINTED NAME", box: [32, 96.5, 413, 107.5], value: 'owner1.name' },
        { text: 'SSN / EIN (applicant)', box: [420, 96.5, 583, 107.5], value: 'owner1.ssn' },
        { text: "APPLICANT'S PRINTED ADDRESS", box: [32, 118, 270, 129.5], value: 'owner1.addr.street' },
        { text: 'CITY', box: [276, 118, 373, 129.5], value: 'owner1.addr.city' },
        { text: 'STATE', box: [379, 118, 414, 129.5], value: 'owner1.addr.state' },
        { text: 'ZIP CODE', box: [420, 118, 485, 129.5], value: 'owner1.addr.zip' },
        { text: 'COUNTY', box: [491, 118, 583, 129.5], value: 'owner1.addr.county' },
        { text: "CO- APPLICANT'S NAME", box: [32, 140.5, 413, 151], value: 'owner2.name' },
        { text: 'SSN / EIN (co-applicant)', box: [420, 140.5, 583, 151], value: 'owner2.ssn' },
        { mark: 'ORIGINAL CERTIFICATE OF TITLE', box: [33, 176.5, 41.5, 185], when: 'txn.new_title' },
        {
          text: 'Evidence of ownership',
          box: [352, 175, 568, 186.5],
          value: ['title.issuing_state', 'title.number'],
          if: 'txn.new_title',
        },
        {
          text: 'Name of Previous Owner',
          box: [212, 220, 413, 231.5],
          value: 'seller.name',
          if: 'txn.ownership_change',
        },
        {
          text: 'Address of Previous Owner',
          box: [219, 236.5, 568, 247.5],
          value: 'seller.addr.one_line',
          if: 'txn.ownership_change',
        },
        {
          text: 'Lien Holder (original title)',
          box: [99, 261, 227, 272],
          value: 'lien.holder_name_or_none',
          if: 'txn.new_title',
        },
        { text: '/E Code # (original title)', box: [271, 261, 358, 272], value: 'lien.elt_id', if: 'txn.new_title' },
        {
          text: 'Address (lien holder, original title)',
          box: [397, 261, 568, 272],
          value: 'lien.holder_addr.one_line',
          if: 'txn.new_title',
        },
        { mark: 'DUPLICATE CERTIFICATE OF TITLE', box: [33, 281, 41.5, 289.5], when: 'txn.duplicate_title' },
        {
          text: 'Certificate of Title Number (duplicate)',
          box: [241, 299, 404, 310.5],
          value: 'title.number',
          if: 'txn.duplicate_title',
        },
        {
          text: 'has been (lost, stolen, destroyed)',
          box: [448, 298.5, 562, 310.5],
          value: 'title.missing_reason',
          if: 'txn.duplicate_title',
        },
        {
          text: 'The vehicle is in the possession of',
          box: [190, 326, 568, 337.5],
          value: 'owners_line',
          if: 'txn.duplicate_title',
        },
        { text: 'residing at', box: [94, 340.5, 348, 351.5], value: 'owner1.addr.one_line', if: 'txn.duplicate_title' },
        {
          text: 'Lien Holder (duplicate)',
          box: [99, 383, 227, 394.5],
          value: 'record_lien.holder_name_or_none',
          if: 'txn.duplicate_title',
        },
        {
          text: '/E Code # (duplicate)',
          box: [271, 383, 358, 394.5],
          value: 'record_lien.elt_id',
          if: 'txn.duplicate_title',
        },
        {
          text: 'Address (lien holder, duplicate)',
          box: [397, 383, 568, 394.5],
          value: 'record_lien.holder_addr.one_line',
          if: 'txn.duplicate_title',
        },
        { text: 'YEAR', box: [32, 470.5, 82, 482.5], value: 'vehicle.year' },
        { text: 'VIN', box: [86, 470.5, 226, 482.5], value: 'vehicle.vin' },
        { text: 'MODEL', box: [230, 470.5, 316, 482.5], value: 'vehicle.model' },
        { text: 'BODY TYPE', box: [320, 470.5, 400, 482.5], value: 'vehicle.body' },
        { text: 'MAKE', box: [404, 470.5, 493, 482.5], value: 'vehicle.make' },
        { text: 'PURCHASE PRICE', box: [38, 493.5, 150, 504.5], value: 'sale.price', if: 'txn.purchase' },
      ],
    },
  },
  rules: {
    poaFields: ['ssn'],
    sources: [{ doc: 'spec/title-service-spec.md, POST /poa', note: 'SSN only in New Jersey and Ohio' }],
  },
});
