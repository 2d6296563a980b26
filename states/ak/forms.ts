/**
 * Alaska: the official Vehicle Transaction Application (V1) is filled when
 * found in a template folder; other forms are drawn. The V1's fields carry
 * generic names (`Text30`, `Check Box36`): each is placed by the label printed
 * beside it on the form (Rev 03/24).
 */
import { defineState } from '../standard.js';

const URL = 'https://dmv.alaska.gov/media/u3rlavkq/v1.pdf';

export default defineState({
  code: 'AK',
  name: 'Alaska',
  agency: 'Alaska Division of Motor Vehicles',
  templates: {
    form_title_application: {
      file: 'ak/V1.pdf',
      name: 'V1, Vehicle Transaction Application',
      printed: 'VEHICLE TRANSACTION APPLICATION',
      url: URL,
      sha256: 'b56ef7094c4cd12ae3943f4ffb8b28d46cecd6a09f1f291fb2c4cf8bed4ae43a',
      fields: [
        { check: 'Check Box1', when: 'txn.new_title' }, // Title & Registration (new/used vehicles, changes to ownership)
        { check: 'Check Box12', when: ['txn.lien_only', 'lien.present'] }, // Add/Remove a Lienholder from AK Title
        { check: 'Check Box14', when: 'txn.duplicate_only' }, // Replace Lost, Stolen, Destroyed Alaskan Title
        { field: 'plate number', value: 'vehicle.plate', if: 'title.is_in_state' },
        { field: 'VIN', value: 'vehicle.vin' },
        { field: 'year', value: 'vehicle.year' },
        { field: 'Make', value: 'vehicle.make' },
        { field: 'Model', value: 'vehicle.model' },
        { field: 'Body Style', value: 'vehicle.body' },
        { field: 'COLOR', value: 'vehicle.color' },
        { field: 'Weight', value: 'vehicle.weight_empty' },
        // owner/lessee mailing and residence addresses
        { field: 'Text13', value: 'owner1.mailing.street' },
        { field: 'Text14', value: 'owner1.mailing.city' },
        { field: 'Text15', value: 'owner1.mailing.state' },
        { field: 'Text16', value: 'owner1.mailing.zip' },
        { field: 'Text17', value: 'owner1.addr.street' },
        { field: 'Text18', value: 'owner1.addr.city' },
        { field: 'Text19', value: 'owner1.addr.state' },
        { field: 'Text20', value: 'owner1.addr.zip' },
        // owner: applicant type Individual, full legal name, license or date of birth, e-mail, phone
        { check: 'Check Box23', when: 'owner1.present' },
        { field: 'Text30', value: 'owner1.name' },
        { field: 'Text31', value: 'owner1.dl_number' },
        { field: 'Text34', value: 'owner1.email' },
        { field: 'Text35', value: 'owner1.phone' },
        // conjunction: AND / OR
        { check: 'Check Box36', when: ['owner2.present', 'title.owners_and'] },
        { check: 'Check Box37', when: ['owner2.present', 'title.owners_or'] },
        // co-owner: applicant type Individual, full legal name, license
        { check: 'Check Box38', when: 'owner2.present' },
        { field: 'Text44', value: 'owner2.name' },
        { field: 'Text45', value: 'owner2.dl_number' },
        // lienholder name, mailing address, city, state, zip
        { field: 'Text48', value: 'lien.holder_name' },
        { field: 'Text49', value: 'lien.holder_addr.street' },
        { field: 'Text50', value: 'lien.holder_addr.city' },
        { field: 'Text51', value: 'lien.holder_addr.state' },
        { field: 'Text52', value: 'lien.holder_addr.zip' },
      ],
    },
  },
  rules: {
    poaFields: ['plate'],
    sources: [
      {
        doc: 'spec/title-service-spec.md, POST /poa',
        note: 'plate only in Alabama, Alaska, California, Kentucky, Oregon, Vermont',
      },
      { url: URL, date: '2026-11-25', note: 'V1 (Rev 03/24)' },
    ],
  },
});
