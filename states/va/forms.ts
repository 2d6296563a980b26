/**
 * Virginia: VSA 17A (official, flattened: no AcroForm fields) is the title
 * application; values are written at boxes measured from the form
 * (`pdftotext -bbox-layout` of the labels and the form's rules), in points
 * from the page's top-left corner. Page 2 (tax relief, insurance,
 * registration) is left to the applicant.
 */
import { defineState } from '../standard.js';

const row = (y0: number, y1: number) => ({
  street: [28, y0, 275, y1] as const,
  city: [279, y0, 491, y1] as const,
  state: [495, y0, 527, y1] as const,
  zip: [531, y0, 584, y1] as const,
});
const owner = row(226.3, 237.7);
const ownerMail = row(248, 259.3);
const coOwner = row(269.6, 281);
const coOwnerMail = row(291.2, 302);
const lienAddr = row(521.8, 532.5);

export default defineState({
  code: 'VA',
  name: 'Virginia',
  agency: 'Virginia Department of Motor Vehicles',
  templates: {
    form_title_application: {
      file: 'va/VSA-17A.pdf',
      name: 'VSA 17A, Application for Certificate of Title and Registration',
      printed: 'VSA 17A',
      url: 'https://www.dmv.virginia.gov/sites/default/files/forms/vsa17a.pdf',
      // the revision the overlay was measured on (/work/shared/forms, SOURCES.md); another file is a different revision
      sha256: '77662ba314cb580fc3de93ce6bb82b4782601b00ea8b67d9a578b1e0b1459f13',
      fields: [],
      overlay: [
        { mark: 'APPLICATION TYPE: Title', box: [121, 105.5, 129.5, 113.5], when: 'always' },
        { mark: 'Vehicle is owned by individual(s)', box: [66.5, 130, 75, 138], when: 'owner1.present' },
        {
          text: "OWNER'S FULL LEGAL NAME (last, first, mi, suffix)",
          box: [28, 161.5, 340, 172.5],
          value: 'owner1.name_lfm',
        },
        { text: 'TELEPHONE NUMBER (owner)', box: [345, 161.5, 444, 172.5], value: 'owner1.phone' },
        { text: 'DMV CUSTOMER NUMBER / FEIN / SSN (owner)', box: [449, 161.5, 584, 172.5], value: 'owner1.dl_number' },
        {
          text: "CO-OWNER'S FULL LEGAL NAME (last, first, mi, suffix)",
          box: [28, 183, 340, 194.3],
          value: 'owner2.name_lfm',
        },
        { text: 'TELEPHONE NUMBER (co-owner)', box: [345, 183, 444, 194.3], value: 'owner2.phone' },
        { text: 'DMV CUSTOMER NUMBER / FEIN / SSN (co-owner)', box: [449, 183, 584, 194.3], value: 'owner2.dl_number' },
        { text: 'RESIDENCE/BUSINESS JURISDICTION', box: [449, 205, 584, 216], value: 'owner1.addr.county' },
        { text: "OWNER'S STREET ADDRESS", box: owner.street, value: 'owner1.addr.street' },
        { text: 'CITY (owner)', box: owner.city, value: 'owner1.addr.city' },
        { text: 'STATE (owner)', box: owner.state, value: 'owner1.addr.state' },
        { text: 'ZIP CODE (owner)', box: owner.zip, value: 'owner1.addr.zip' },
        {
          text: "OWNER'S MAILING ADDRESS (if different from above)",
          box: ownerMail.street,
          value: 'owner1.mailing_if_different.street',
        },
        { text: 'CITY (owner mailing)', box: ownerMail.city, value: 'owner1.mailing_if_different.city' },
        { text: 'STATE (owner mailing)', box: ownerMail.state, value: 'owner1.mailing_if_different.state' },
        { text: 'ZIP CODE (owner mailing)', box: ownerMail.zip, value: 'owner1.mailing_if_different.zip' },
        { text: "CO-OWNER'S STREET ADDRESS", box: coOwner.street, value: 'owner2.addr.street' },
        { text: 'CITY (co-owner)', box: coOwner.city, value: 'owner2.addr.city' },
        { text: 'STATE (co-owner)', box: coOwner.state, value: 'owner2.addr.state' },
        { text: 'ZIP CODE (co-owner)', box: coOwner.zip, value: 'owner2.addr.zip' },
        {
          text: "CO-OWNER'S MAILING ADDRESS (if different from above)",
          box: coOwnerMail.street,
          value: 'owner2.mailing_if_different.street',
        },
        { text: 'CITY (co-owner mailing)', box: coOwnerMail.city, value: 'owner2.mailing_if_different.city' },
        { text: 'STATE (co-owner mailing)', box: coOwnerMail.state, value: 'owner2.mailing_if_different.state' },
        { text: 'ZIP CODE (co-owner mailing)', box: coOwnerMail.zip, value: 'owner2.mailing_if_different.zip' },
        { text: 'YEAR', box: [28, 383.6, 60, 395], value: 'vehicle.year' },
        { text: 'MAKE', box: [63, 383.6, 157, 395], value: 'vehicle.make' },
        { text: 'MODEL', box: [160.5, 383.6, 247, 395], value: 'vehicle.model' },
        { text: 'BODY TYPE', box: [250.5, 383.6, 319, 395], value: 'vehicle.body' },
        { text: 'VEHICLE IDENTIFICATION NUMBER (VIN)', box: [322.5, 383.6, 513, 395], value: 'vehicle.vin' },
        { text: 'EMPTY WEIGHT', box: [28, 405.2, 89, 415.5], value: 'vehicle.weight_empty' },
        { text: 'VEHICLE COLOR PRIMARY', box: [296, 424.5, 400, 439], value: 'vehicle.color' },
        { text: 'PREVIOUS TITLE NUMBER', box: [344, 451.4, 500, 465], value: 'title.number' },
        { text: 'STATE (previous title)', box: [506, 451.4, 584, 465], value: 'title.issuing_state' },
        { mark: 'IS THERE A LIEN ON THIS VEHICLE? YES', box: [163, 480, 171, 487.5], when: 'lien.present' },
        { text: 'DATE OF FIRST LIEN (mm/dd/yyyy)', box: [28, 500.2, 168, 511.3], value: 'lien.date' },
        { text: 'LIENHOLDER NAME', box: [171.4, 500.2, 491, 511.3], value: 'lien.holder_name' },
        { text: 'LIENHOLDER CODE', box: [495.4, 500.2, 584, 511.3], value: 'lien.elt_id' },
        { text: 'LIENHOLDER MAILING ADDRESS', box: lienAddr.street, value: 'lien.holder_addr.street' },
        { text: 'CITY (lienholder)', box: lienAddr.city, value: 'lien.holder_addr.city' },
        { text: 'STATE (lienholder)', box: lienAddr.state, value: 'lien.holder_addr.state' },
        { text: 'ZIP CODE (lienholder)', box: lienAddr.zip, value: 'lien.holder_addr.zip' },
        {
          mark: 'HOW WAS THIS VEHICLE SOLD TO YOU? USED',
          box: [66, 567, 74.5, 575],
          when: ['txn.purchase', 'sale.is_used'],
        },
        {
          mark: 'HOW WAS THIS VEHICLE SOLD TO YOU? NEW',
          box: [98.5, 567, 106.5, 575],
          when: ['txn.purchase', 'sale.is_new'],
        },
        { text: 'PURCHASE DATE (mm/dd/yyyy)', box: [207, 566.6, 310, 577], value: 'sale.date', if: 'txn.purchase' },
        { text: 'SALES PRICE', box: [28, 588.2, 96, 599.5], value: 'sale.price', if: 'txn.purchase' },
        {
          text: 'VEHICLE PURCHASED FROM',
          box: [254, 588.2, 416, 599.5],
          value: 'seller.name',
          if: 'txn.ownership_change',
        },
        {
          text: 'STREET ADDRESS (seller)',
          box: [28, 609.8, 293, 621.5],
          value: 'seller.addr.street',
          if: 'txn.ownership_change',
        },
        { text: 'CITY (seller)', box: [297, 609.8, 491, 621.5], value: 'seller.addr.city', if: 'txn.ownership_change' },
        {
          text: 'STATE (seller)',
          box: [495, 609.8, 527, 621.5],
          value: 'seller.addr.state',
          if: 'txn.ownership_change',
        },
        {
          text: 'ZIP CODE (seller)',
          box: [531, 609.8, 584, 621.5],
          value: 'seller.addr.zip',
          if: 'txn.ownership_change',
        },
        { text: 'ODOMETER READING (no tenths)', box: [28, 699.5, 203, 710], value: 'title.odometer' },
        {
          mark: 'The odometer reading above is the ACTUAL MILEAGE',
          box: [239.5, 714, 248, 722],
          when: 'title.odometer_actual',
        },
        {
          mark: 'The odometer reading above is NOT the ACTUAL MILEAGE',
          box: [41.5, 728.5, 50, 736.5],
          when: 'title.odometer_not_actual',
        },
        {
          mark: 'The odometer reading above is IN EXCESS of its mechanical limits',
          box: [41.5, 739.5, 50, 747.5],
          when: 'title.odometer_exceeds',
        },
        { mark: 'Vehicle was exempt from disclosure', box: [41.5, 750, 50, 758], when: 'title.odometer_exempt' },
      ],
    },
  },
});
