/**
 * Maryland: the official Bill of Sale (VR-181), which carries the seller's
 * odometer statement, is the odometer document of a purchase when found in a
 * template folder; otherwise (and for other transactions) the odometer
 * disclosure is drawn. Other forms are drawn.
 */
import { defineState } from '../standard.js';

const URL = 'https://mva.maryland.gov/Documents/VR-181.pdf';

export default defineState({
  code: 'MD',
  name: 'Maryland',
  agency: 'Maryland Motor Vehicle Administration',
  templates: {
    form_odometer_disclosure: {
      file: 'md/VR-181.pdf',
      name: 'VR-181, Bill of Sale (with odometer statement)',
      printed: 'VR-181',
      url: URL,
      sha256: '8e08b30b9a0663f2822e12c50723c97442c239d7b2842defce1a0dd18b011fe1',
      when: 'txn.purchase',
      fields: [
        { field: 'year', value: 'vehicle.year' },
        { field: 'make', value: 'vehicle.make' },
        { field: 'model', value: 'vehicle.model' },
        { field: 'body_style', value: 'vehicle.body' },
        { field: 'vin', value: 'vehicle.vin' },
        { field: 'buyers', value: 'owners_line' },
        { field: 'total', value: 'sale.price' },
        { field: 'odometer', value: 'title.odometer' },
        {
          radio: 'odo',
          choose: [
            { option: 'excess', when: 'title.odometer_exceeds' },
            { option: 'not_actual', when: 'title.odometer_not_actual' },
          ],
        },
        { field: 'seller1', value: 'seller.name' },
        { field: 'buyer1', value: 'owner1.name' },
        { field: 'buyer2', value: 'owner2.name' },
      ],
    },
  },
  rules: {
    sources: [
      {
        url: URL,
        date: '2026-11-25',
        note: 'VR-181 (03-18): the bill of sale states the odometer reading and its exceptions',
      },
    ],
  },
});
