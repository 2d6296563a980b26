/**
 * Arizona: the official Title and Registration Application (96-0236) is
 * filled when found in a template folder; other forms are drawn.
 */
import { defineState } from '../standard.js';

const URL = 'https://apps.azdot.gov/files/mvd/mvd-forms-lib/96-0236.pdf';
const owner = (n: 1 | 2 | 3) => {
  const p = `owner${n}` as const;
  const f = (label: string) => `Owner/Company Name- ${label} ${n}`;
  return [
    { field: `Owner/Company Name-${n}`, value: `${p}.name` },
    { field: f('DL/EIN Number'), value: `${p}.dl_number` },
    { field: f('Date of Birth'), value: `${p}.dob` },
    { field: f('Residential/Business Address'), value: `${p}.addr.street` },
    { field: f('Residential/Business City'), value: `${p}.addr.city` },
    { field: f('Residential/Business State'), value: `${p}.addr.state` },
    { field: f('Residential/Business Zip'), value: `${p}.addr.zip` },
    { field: f('Mailing Address'), value: `${p}.mailing_if_different.street` },
    { field: f('Mailing City'), value: `${p}.mailing_if_different.city` },
    { field: f('Mailing State'), value: `${p}.mailing_if_different.state` },
    { field: f('Mailing Zip'), value: `${p}.mailing_if_different.zip` },
    { field: f('Phone Number'), value: `${p}.phone` },
    { field: f('Email Address'), value: `${p}.email` },
  ] as const;
};
// co-owners: the legal status (Or / And) of each owner's line follows the title's conjunction
const status = (n: 1 | 2) =>
  ({
    radio: `Owner/Company- Legal Status ${n}`,
    choose: [
      { option: 'Or', when: ['owner2.present', 'title.owners_or'] },
      { option: 'And', when: ['owner2.present', 'title.owners_and'] },
    ],
  }) as const;

export default defineState({
  code: 'AZ',
  name: 'Arizona',
  agency: 'Arizona Department of Transportation, Motor Vehicle Division',
  templates: {
    form_title_application: {
      file: 'az/96-0236.pdf',
      name: '96-0236, Title and Registration Application',
      printed: '96-0236',
      url: URL,
      sha256: '1b65e05b753a5b14c7dc0ecfb7136fb18f5343c7f59816a1c34076797e2a0123',
      fields: [
        { check: '2', when: 'txn.new_title' }, // Title Only
        { check: '4', when: 'txn.duplicate_only' }, // Duplicate Title
        { check: '5', when: ['txn.lien_only', 'lien.present'] }, // Add Lien
        { field: 'VIN', value: 'vehicle.vin' },
        { field: 'Year', value: 'vehicle.year' },
        { field: 'Make', value: 'vehicle.make' },
        { field: 'Model', value: 'vehicle.model' },
        { field: 'Body Style', value: 'vehicle.body' },
        { field: 'GVW', value: 'vehicle.weight_gross' },
        { field: 'Fuel', value: 'vehicle.fuel' },
        { field: 'Plate Number', value: 'vehicle.plate' },
        { field: 'Odometer Reading', value: 'title.odometer' },
        {
          radio: 'Odo Codes',
          choose: [
            { option: 'A', when: 'title.odometer_actual' },
            { option: 'B', when: 'title.odometer_exceeds' },
            { option: 'C', when: 'title.odometer_not_actual' },
          ],
        },
        { field: 'Sale Date', value: 'sale.date' },
        { field: 'Lienholder Name', value: 'lien.holder_name_or_none' },
        { field: 'Lien Date', value: 'lien.date' },
        { field: 'Lien Amount $', value: 'lien.amount' },
        { field: 'Arizona ELT/EIN or Driver Lience', value: 'lien.elt_id' },
        { field: 'Lienholder- Mailing Address', value: 'lien.holder_addr.street' },
        { field: 'Lienholder- City', value: 'lien.holder_addr.city' },
        { field: 'Lienholder- State', value: 'lien.holder_addr.state' },
        { field: 'Lienholder- Zip', value: 'lien.holder_addr.zip' },
        ...owner(1),
        status(1),
        ...owner(2),
        status(2),
        ...owner(3),
      ],
    },
  },
  rules: {
    poaFields: ['dob'],
    sources: [
      { doc: 'spec/title-service-spec.md, POST /poa', note: 'DOB only in Arizona, Florida, Colorado' },
      { url: URL, date: '2026-11-25', note: '96-0236 (R05/25): "Lienholder Name (if no lien, write NONE)"' },
    ],
  },
});
