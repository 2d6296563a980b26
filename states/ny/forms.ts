/**
 * New York: the official Vehicle Registration/Title Application (MV-82) is
 * filled when found in a template folder; other forms are drawn.
 */
import { defineState } from '../standard.js';

const URL = 'https://dmv.ny.gov/forms/mv82.pdf';
const MAIL = 'THE ADDRESS WHERE PRIMARY REGISTRANT GETS MAIL';
const RESIDES = 'THE ADDRESS WHERE PRIMARY REGISTRANT RESIDES IF DIFFERENT FROM THE MAILING ADDRESS';

export default defineState({
  code: 'NY',
  name: 'New York',
  agency: 'New York State Department of Motor Vehicles',
  templates: {
    form_title_application: {
      file: 'ny/MV-82.pdf',
      name: 'MV-82, Vehicle Registration/Title Application',
      printed: 'MV-82',
      url: URL,
      sha256: '179a20eb9c5f1fb12dee31dcefccf14dbf0db5167d55cc6fe0bb944b5c0321ef',
      fields: [
        { radio: 'I WANT TO', choose: [{ option: 'GET A TITLE ONLY', when: 'txn.new_title' }] },
        { field: 'NAME OF PRIMARY REGISTRANT Last First Middle or Business Name', value: 'owner1.name_lfm' },
        {
          field: 'NYS New York State driver license ID Identification number of PRIMARY REGISTRANT',
          value: 'owner1.dl_number',
        },
        { select: 'PRIMARY REGISTRANT DATE OF BIRTH Month', value: 'owner1.dob_mm' },
        { select: 'PRIMARY REGISTRANT DATE OF BIRTH Day', value: 'owner1.dob_dd' },
        { field: 'PRIMARY REGISTRANT DATE OF BIRTH Year', value: 'owner1.dob_yyyy' },
        { field: 'PRIMARY REGISTRANT TELEPHONE or MOBILE PHONE NUMBER Area Code', value: 'owner1.phone_area' },
        { field: 'PRIMARY REGISTRANT TELEPHONE or MOBILE PHONE NUMBER', value: 'owner1.phone_local' },
        { field: 'NAME OF CO-REGISTRANT Last First Middle', value: 'owner2.name_lfm' },
        { field: 'CO-REGISTRANT EMAIL', value: 'owner2.email' },
        {
          field: 'NYS New York State driver license ID Identification number of CO-REGISTRANT',
          value: 'owner2.dl_number',
        },
        { select: 'CO-REGISTRANT DATE OF BIRTH Month', value: 'owner2.dob_mm' },
        { select: 'CO-REGISTRANT DATE OF BIRTH Day', value: 'owner2.dob_dd' },
        { field: 'CO-REGISTRANT DATE OF BIRTH Year', value: 'owner2.dob_yyyy' },
        { field: MAIL, value: 'owner1.mailing.street' },
        { field: `${MAIL} City or Town`, value: 'owner1.mailing.city' },
        { select: `${MAIL} State`, value: 'owner1.mailing.state' },
        { field: `${MAIL} Zip Code`, value: 'owner1.mailing.zip' },
        { field: RESIDES, value: 'owner1.residence_if_different.street' },
        { field: `${RESIDES} City or Town`, value: 'owner1.residence_if_different.city' },
        { select: `${RESIDES} State`, value: 'owner1.residence_if_different.state' },
        { field: `${RESIDES} Zip Code`, value: 'owner1.residence_if_different.zip' },
        { field: 'County of Residence', value: 'owner1.addr.county' },
        { field: 'VEHICLE IDENTIFICATION NUMBER', value: 'vehicle.vin' },
        { field: 'VEHICLE DESCRIPTION Year', value: 'vehicle.year' },
        { field: 'VEHICLE DESCRIPTION Make', value: 'vehicle.make' },
        { field: 'Color', value: 'vehicle.color' },
        { field: 'Unladen Weight', value: 'vehicle.weight_empty' },
        { field: 'Odometer Reading in Miles', value: 'title.odometer' },
        { field: 'Print Name Here', value: 'owner1.name' },
        { field: 'Print Additional Name Here', value: 'owner2.name' },
      ],
    },
  },
  rules: {
    sources: [{ url: URL, date: '2026-11-25', note: 'MV-82 (12/24)' }],
  },
});
