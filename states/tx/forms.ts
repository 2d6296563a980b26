/**
 * Texas: Form 130-U (official, fillable) is the title application and also
 * records a new lien (box 34), so a new lien needs no separate lien form.
 * Field names are the 130-U's AcroForm names (98 fields).
 */
import { defineState } from '../standard.js';

export default defineState({
  code: 'TX',
  name: 'Texas',
  agency: 'Texas Department of Motor Vehicles',
  forms: {
    new_lien: ['form_title_application'],
    refinance: ['form_title_application', 'form_payoff_authorization', 'form_letter_of_guarantee'],
  },
  templates: {
    form_title_application: {
      file: 'tx/130-U.pdf',
      name: 'Form 130-U, Application for Texas Title and/or Registration',
      printed: 'Form 130-U',
      sha256: 'a503a90f4c5edb8af442003dabf29ade33340f965d02d2c6f4850765c08fe05b',
      url: 'https://www.txdmv.gov/sites/default/files/form_files/130-U.pdf',
      // the blanks above "Signature of Applicant/Owner" and "Signature(s) of Additional Applicant(s)/Owner(s)" (page 1)
      signatures: [
        { page: 0, box: [24, 718.5, 290, 735], date: [519, 588], signer: 'owner1', role: 'Applicant/Owner' },
        {
          page: 0,
          box: [24, 747.5, 155, 762.5],
          date: [519, 588],
          signer: 'owner2',
          role: 'Additional Applicant/Owner',
        },
        { page: 0, box: [158, 747.5, 290, 762.5], signer: 'owner3', role: 'Additional Applicant/Owner' },
      ],
      fields: [
        { check: 'Title Only', when: 'txn.new_title' },
        { check: 'AddRemove Lien', when: 'txn.lien_only' },
        {
          check:
            'I certify I am applying for a corrected title and the original Texas Certificate of Title is lost or destroyed',
          when: ['txn.duplicate_title', 'txn.lien_only'],
        },
        { field: '1 Vehicle Identification Number', value: 'vehicle.vin' },
        { field: '2 Year', value: 'vehicle.year' },
        { field: '3 Make', value: 'vehicle.make' },
        { field: '4 Body Style', value: 'vehicle.body' },
        { field: '5 Model', value: 'vehicle.model' },
        { field: '6 Major Color', value: 'vehicle.color' },
        { field: '7 Minor Color', value: 'vehicle.color_secondary' },
        { field: '8 Texas License Plate No', value: 'vehicle.plate' },
        { field: '9 Odometer Reading no tenths', value: 'title.odometer' },
        { check: 'Not Actual', when: 'title.odometer_not_actual' },
        { check: 'Exceeds Mechanical Limits', when: 'title.odometer_exceeds' },
        { check: 'Exempt', when: 'title.odometer_exempt' },
        { field: '11 Empty Weight', value: 'vehicle.weight_empty' },
        { check: 'Individual', when: 'owner1.present' },
        { check: 'U.S. Driver License/ID Card', when: 'owner1.has_dl' },
        { field: '14 Applicant Photo ID Number or FEINEIN', value: 'owner1.dl_number' },
        { field: 'State of ID/DL', value: 'owner1.dl_state' },
        { field: '16 Applicant First Name or Entity Name Middle Name Last Name Suffix if any', value: 'owner1.name' },
        {
          field: '17 Additional Applicant First Name if applicable Middle Name Last Name Suffix if any',
          value: 'owner2.name',
        },
        { field: '18 Applicant Mailing Address City State Zip', value: 'owner1.mailing.one_line' },
        { field: '19 Applicant County of Residence', value: 'owner1.addr.county' },
        {
          field: '20 Previous Owner Name or Entity Name City State',
          value: ['seller.name', 'seller.addr.city', 'seller.addr.state'],
          join: ', ',
          if: 'txn.ownership_change',
        },
        { field: '25 Applicant Phone Number optional', value: 'owner1.phone' },
        { field: '26 Email optional', value: 'owner1.email' },
        { field: '32 CertifiedeTitle Lienholder ID Number if any', value: 'lien.elt_id' },
        { field: '33 First Lien Date if any', value: 'lien.date' },
        { field: '34 First Lienholder Name if any Mailing Address City State Zip', value: 'lien.holder_name_addr' },
        { check: '$90 New Resident Tax  Previous State', when: 'txn.out_of_state_transfer' },
        { field: "Resident's previous state", value: 'title.issuing_state_name', if: 'txn.out_of_state_transfer' },
        { field: 'Seller  Name', value: 'seller.name', if: 'txn.ownership_change' },
        { field: 'Applicant Owner', value: 'owner1.name' },
        { field: 'Additional Applicant', value: 'owner2.name' },
      ],
    },
  },
  drawn: {
    form_duplicate_title: { officialName: 'Form VTR-34, Application for a Certified Copy of Title' },
    forms_poa: { officialName: 'Form VTR-271, Limited Power of Attorney' },
  },
  rules: {
    sources: [
      {
        url: 'https://www.txdmv.gov/sites/default/files/form_files/130-U.pdf',
        date: '2026-11-20',
        note: 'box 34 records the first lienholder on the title application',
      },
    ],
  },
});
