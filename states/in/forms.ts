/**
 * Indiana: the official Application for Certificate of Title (State Form
 * 205) is filled when found in a template folder; its VIN inspection section
 * is filled for a vehicle last titled in another state. Other forms are drawn.
 */
import { defineState } from '../standard.js';

const URL = 'https://forms.in.gov/Download.aspx?id=4815';

export default defineState({
  code: 'IN',
  name: 'Indiana',
  agency: 'Indiana Bureau of Motor Vehicles',
  templates: {
    form_title_application: {
      file: 'in/SF-205.pdf',
      name: 'State Form 205, Application for Certificate of Title for a Vehicle',
      printed: 'State Form 205',
      url: URL,
      sha256: 'f937366de3d4e25612e4b80ab04aa052b7a07ccd6e95c27104e50281f8f1ed60',
      fields: [
        // section: physical inspection of the VIN (out-of-state vehicles)
        {
          chars: [
            'Vehicle Identification Number1',
            'Vehicle Identification Number2',
            'Vehicle Identification Number3',
            'Vehicle Identification Number4',
            'Vehicle Identification Number5',
            'Vehicle Identification Number6',
            'Vehicle Identification Number7',
            'Vehicle Identification Number8',
            'Vehicle Identification Number9',
            'Vehicle Identification Number10',
            'Vehicle Identification Number11',
            'Vehicle Identification Number12',
            'Vehicle Identification Number13',
            'Vehicle Identification Number14',
            'Vehicle Identification Number15',
            'Vehicle Identification Number16',
            'Vehicle Identification Number17',
          ],
          value: 'vehicle.vin',
          if: 'txn.out_of_state_transfer',
        },
        { field: 'Year', value: 'vehicle.year', if: 'txn.out_of_state_transfer' },
        { field: 'Make', value: 'vehicle.make', if: 'txn.out_of_state_transfer' },
        { field: 'Model', value: 'vehicle.model', if: 'txn.out_of_state_transfer' },
        { field: 'Type', value: 'vehicle.body', if: 'txn.out_of_state_transfer' },
        { field: 'Printed Name', value: 'owner1.name' },
        { field: 'Printed Name_2', value: 'owner2.name' },
        { check: 'Electronic', when: 'title.is_electronic' },
        { field: 'Vehicle Color', value: 'vehicle.color' },
        { field: 'Name of Applicant', value: 'owners_line' },
        { field: 'Residence Address number and street', value: 'owner1.addr.street' },
        { field: 'City_2', value: 'owner1.addr.city' },
        { field: 'State', value: 'owner1.addr.state' },
        { field: 'ZIP Code', value: 'owner1.addr.zip' },
        { field: 'Vehicle Identification Number_2', value: 'vehicle.vin' },
        { field: 'Vehicle Year', value: 'vehicle.year' },
        { field: 'Vehicle Make', value: 'vehicle.make' },
        { field: 'Vehicle Model', value: 'vehicle.model' },
        { field: 'Vehicle Type', value: 'vehicle.body' },
        { field: 'Odometer', value: 'title.odometer' },
        { field: 'Former Title Number', value: 'title.number' },
        { field: 'Purchase Date mmddyyyy', value: 'sale.date' },
        { field: 'Lien YN', value: 'lien.present_yn' },
        { field: 'Electronic Lien and Title ELT identification number', value: 'lien.elt_id' },
        {
          field: 'Holder of First Lien Mortgage or Other Encumbrance  Special Mailing Address',
          value: 'lien.holder_name',
        },
        { field: 'Mailing Address number and street', value: 'lien.holder_addr.street' },
        { field: 'City_3', value: 'lien.holder_addr.city' },
        { field: 'State_2', value: 'lien.holder_addr.state' },
        { field: 'ZIP Code_2', value: 'lien.holder_addr.zip' },
        { field: 'License Number', value: 'vehicle.plate' },
        { field: 'Selling Price', value: 'sale.price' },
      ],
    },
  },
  rules: {
    sources: [{ url: URL, date: '2026-11-25', note: 'State Form 205 (R13 / 7-25)' }],
  },
});
