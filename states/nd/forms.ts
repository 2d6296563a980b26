/**
 * North Dakota: the Seller's Certificate and Vehicle Bill of Sale (SFN 2888,
 * fillable) is filed with the title application of a purchase
 * (`form_bill_of_sale`, beyond the standard table); the seller signs it before
 * a notary. Other forms are the standard ones, drawn. See README.md.
 */
import { STANDARD_FORMS, defineState } from '../standard.js';
import type { FieldMapping } from '../types.js';

const URL = 'https://www.dot.nd.gov/forms/sfn02888.pdf';
const P = 'form1[0].Page1[0].appClaimTaxRefund[0]';
const BUYER = `${P}.acknowledgementSubform[0]`;
const VEHICLE = `${P}.vehicleDescriptionSubform[0]`;
const SELLER = `${P}.acknowledgementSubform[1]`;

const fields: FieldMapping[] = [
  { field: `${BUYER}.buyerLegalName[0]`, value: 'owners_line' },
  { check: `${BUYER}.dlCheckBox[0]`, when: 'owner1.has_dl' },
  { field: `${BUYER}.buyerTelephone[0]`, value: 'owner1.phone' },
  { field: `${BUYER}.buyerAddress[0]`, value: 'owner1.mailing.street' },
  { field: `${BUYER}.buyerCity[0]`, value: 'owner1.mailing.city' },
  { field: `${BUYER}.buyerState[0]`, value: 'owner1.mailing.state' },
  { field: `${BUYER}.buyerZipCode[0]`, value: 'owner1.mailing.zip' },
  { field: `${VEHICLE}.year[0]`, value: 'vehicle.year' },
  { field: `${VEHICLE}.make[0]`, value: 'vehicle.make' },
  { field: `${VEHICLE}.model[0]`, value: 'vehicle.model' },
  { field: `${VEHICLE}.bodyStyle[0]`, value: 'vehicle.body' },
  { field: `${VEHICLE}.vin[0]`, value: 'vehicle.vin' },
  { field: `${VEHICLE}.color[0]`, value: 'vehicle.color' },
  { field: `${VEHICLE}.fuelType[0]`, value: 'vehicle.fuel' },
  { field: `${VEHICLE}.weight[0]`, value: 'vehicle.weight_empty' },
  { field: `${VEHICLE}.dollarAmount[0]`, value: 'sale.price' },
  { field: `${VEHICLE}.saleDate[0]`, value: 'sale.date' },
  { field: `${SELLER}.sellerLegalName[0]`, value: 'seller.name' },
  { field: `${SELLER}.sellerTelephone[0]`, value: 'seller.phone' },
  { field: `${SELLER}.sellerAddress[0]`, value: 'seller.mailing.street' },
  { field: `${SELLER}.sellerCity[0]`, value: 'seller.mailing.city' },
  { field: `${SELLER}.sellerState[0]`, value: 'seller.mailing.state' },
  { field: `${SELLER}.sellerZipCode[0]`, value: 'seller.mailing.zip' },
  // "free from all liens and encumbrances except:" the lien of record (blank when there is none)
  { field: `${SELLER}.sellerWarranty[0]`, value: 'record_lien.holder_name' },
  // "reason Certificate of Title can not be furnished": lost or stolen when a duplicate is needed
  { field: `${SELLER}.sellerReasonCert[0]`, value: 'title.missing_reason' },
  // the seller's printed name beside the seller's signature
  { field: `${P}.MVNotaryPublic[0].name[0]`, value: 'seller.name' },
];

export default defineState({
  code: 'ND',
  name: 'North Dakota',
  agency: 'North Dakota Department of Transportation, Motor Vehicle Division',
  forms: { purchase: [...STANDARD_FORMS.purchase, 'form_bill_of_sale'] },
  templates: {
    form_bill_of_sale: {
      file: 'nd/SFN-2888.pdf',
      name: "SFN 2888, Seller's Certificate and Vehicle Bill of Sale",
      printed: 'SFN 2888',
      url: URL,
      sha256: '20532765f4bd5813dd6ff13d6cfc72dbf90a2e9db7167836ee06ff37e8304e2c',
      fields,
    },
  },
});
