/**
 * zod schemas of the spec's resources (spec: Resources and their fields).
 * Objects are loose: unknown members are kept, so the spec's loose fields and
 * a client's extra members survive a round trip. Every member may be `null`
 * in a patch, which removes it (RFC 7396, see core/merge.ts).
 */
import { z } from 'zod';
import { US_STATES } from './domain.js';

/** The 50 states and DC (core/model/domain.ts owns the list). */
export { US_STATES };

const str = z.string().nullish();
/**
 * Largest money amount accepted, in dollars: far above any vehicle, loan or
 * fee, and small enough that every stage's arithmetic in integer cents stays
 * exact (a sale price of 1e308 passed `finite()` and then broke the fees stage).
 */
export const MAX_MONEY = 1_000_000_000;
/** A money amount in dollars: finite, 0 to MAX_MONEY. */
const money = z.number().finite().min(0).max(MAX_MONEY).nullish();
/** A fee or tax line's amount, which may be a credit. */
const signedMoney = z.number().finite().min(-MAX_MONEY).max(MAX_MONEY).nullish();
const bool = z.boolean().nullish();
const strArr = z.array(z.string()).nullish();
const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

const stateCode = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(US_STATES, { message: 'must be a two-letter code of the 50 states or DC' }));

export const AddressSchema = loose({
  street1: str,
  street2: str,
  city: str,
  state: stateCode.nullish(),
  zip: z
    .string()
    .regex(/^\d{5}(-?\d{4})?$/, 'ZIP must be 5 or 9 digits')
    .nullish(),
  recipient_name: str,
  county: str,
});

/**
 * A complete mailing address, as state data and letters need it (a filing
 * office, a receiving facility): every line present, a state code, a ZIP.
 * Strict: a misspelt member is an error. The same members as AddressSchema.
 */
export const CompleteAddressSchema = z
  .object({
    recipient_name: z.string().min(1).optional(),
    street1: z.string().min(1),
    street2: z.string().min(1).optional(),
    city: z.string().min(1),
    state: z.enum(US_STATES),
    zip: z.string().regex(/^\d{5}(-\d{4})?$/, 'ZIP must be 5 or 9 digits (12345 or 12345-6789)'),
    county: z.string().min(1).optional(),
  })
  .strict();
export type CompleteAddress = z.infer<typeof CompleteAddressSchema>;

export const InsuranceSchema = loose({ provider_name: str, provider_naic: str, policy_number: str });

export const PersonSchema = loose({
  type: str,
  name: str,
  name_first: str,
  name_middle: str,
  name_last: str,
  name_suffix: str,
  oats_names: strArr,
  id: str,
  dob: str,
  addr: AddressSchema.nullish(),
  addr_mailing: AddressSchema.nullish(),
  contact_phone: str,
  contact_email: str,
  ssn: str,
  dlid: loose({
    number: str,
    state: str,
    sex: str,
    expiration_date: str,
    first_name: str,
    middle_name: str,
    last_name: str,
    suffix: str,
    addr: AddressSchema.nullish(),
  }).nullish(),
  insurance: InsuranceSchema.nullish(),
  ownership_type: str,
  is_nonobligor: bool,
  transaction_access_url: str,
});

export const LienholderSchema = loose({
  type: str,
  name: str,
  addr: AddressSchema.nullish(),
  id: str,
  name_first: str,
  name_middle: str,
  name_last: str,
  name_suffix: str,
  oats_names: strArr,
  contact_phone: str,
  contact_email: str,
  address_vault: AddressSchema.nullish(),
  elt_id: str,
  feid: str,
  signatory: PersonSchema.nullish(),
});

export const LienSchema = loose({
  lien_date: str,
  lienholder: LienholderSchema.nullish(),
  lien_amount: str,
  lien_id: str,
  lien_release_signed: bool,
  lien_release_date: str,
});

export const FeeItemSchema = loose({
  feeType: str,
  value: signedMoney,
  name: str,
  description: str,
  metadata: z.record(z.string(), z.unknown()).nullish(),
  relevant_transactions: strArr,
  max: signedMoney,
  county: str,
  city: str,
  subtract: bool,
  src: loose({ url: str, date: str }).nullish(),
  late_conditions: z.array(z.record(z.string(), z.unknown())).nullish(),
  last_updated: str,
});

export const VehicleTitleSchema = loose({
  number: str,
  issuing_state: stateCode.nullish(),
  issuing_county: str,
  issuance_date: str,
  brand: z.enum(['SALVAGE', 'JUNK', 'TOTALED', 'LEMON', 'FLOODED', 'REBUILT']).nullish(),
  brand_code: str,
  brands: z.array(loose({ brand: str, nmvtis_code: str, state_code: str })).nullish(),
  odometer_reading: str,
  odometer_reading_unit: str,
  odometer_code: str,
  odometer_code_translation: z.enum(['ACTUAL', 'NOT_ACTUAL', 'EXCESS', 'EXEMPT']).nullish(),
  has_liens: bool,
  active_liens: z.array(LienSchema).nullish(),
  is_electronic: bool,
  is_and: bool,
  is_or: bool,
  is_tod: bool,
  is_jtwros: bool,
  is_leased: bool,
  conjunction: str,
  previous_title: z.unknown().optional(),
  owner_names_one_line: str,
  number_of_owners: z.number().int().min(0).max(100).nullish(),
  owners: z.array(PersonSchema).nullish(),
  status: str,
  status_raw_text: str,
  prev_action: str,
  prev_action_raw_text: str,
  prev_action_date: str,
});

export const VehicleSchema = loose({
  vin: str,
  year: z.number().int().min(1886).max(2100).nullish(),
  make: str,
  model: str,
  body: str,
  type: z.enum(['AUTO', 'OHV', 'MOTORCYCLE', 'TRAILER', 'BOAT', 'LOW_SPEED', 'ORV', 'ATV']).nullish(),
  color: str,
  color_secondary: str,
  fuel_type: str,
  use: str,
  weight: str,
  weight_rating: str,
  weight_gross: str,
  weight_unladen: str,
  width: str,
  length: str,
  bhpcc: str,
  number_of_axles: str,
  number_of_cylinders: str,
  license_plate: str,
  license_plate_type: str,
  motorcycle_engine_number: str,
  registration_status: z.enum(['ACTIVE', 'EXPIRED', 'SUSPENDED']).nullish(),
  registration_expiration_date: str,
  registration_issuance_date: str,
  class: str,
  has_reg_title_holds: bool,
  reg_title_holds: z
    .array(
      loose({ hold_type: str, hold_code: str, hold_description: str, issue_date: str, clear_date: str, source: str }),
    )
    .nullish(),
  prev_date_of_sale: str,
  prev_sale_price: str,
  fee_history: z.array(FeeItemSchema).nullish(),
  insurance: InsuranceSchema.nullish(),
  title: VehicleTitleSchema.nullish(),
});

export const LoanSchema = loose({
  new_lienholder: LienholderSchema.nullish(),
  borrower: z.array(PersonSchema).nullish(),
  loan_id: str,
  security_agreement_sign_date: str,
  loan_amount: money,
  payoff_amount: money,
  per_diem: money,
  prior_lien: LienSchema.nullish(),
  add_owner: z.array(PersonSchema).nullish(),
  drop_owner: z.array(PersonSchema).nullish(),
  release_title_to_address: AddressSchema.nullish(),
});

export const SaleSchema = loose({
  type: str,
  sale_type: str,
  sale_price: money,
  date_of_sale: str,
  state: stateCode.nullish(),
  additional_dues: loose({
    fidelity: str,
    deliveryEstimate: money,
    taxEstimates: z.array(FeeItemSchema).nullish(),
    feeEstimates: z.array(FeeItemSchema).nullish(),
  }).nullish(),
  seller: PersonSchema.nullish(),
  buyer: z.array(PersonSchema).nullish(),
  financed: LienSchema.nullish(),
});

export const AccountDataSchema = loose({
  vehicle: VehicleSchema.nullish(),
  loan: LoanSchema.nullish(),
  sale: SaleSchema.nullish(),
  txn_quick_reference: str,
});

export type Address = z.infer<typeof AddressSchema>;
export type Person = z.infer<typeof PersonSchema>;
export type Lienholder = z.infer<typeof LienholderSchema>;
export type Lien = z.infer<typeof LienSchema>;
export type FeeItem = z.infer<typeof FeeItemSchema>;
export type AccountData = z.infer<typeof AccountDataSchema>;

/** The sync flags of POST /title and POST /title/{id}/data. */
export const SyncFlagsSchema = z.object({
  sync_nmvtis: z.boolean().optional(),
  sync_public: z.boolean().optional(),
  sync_private: z.boolean().optional(),
  dppa_exemption: z.string().max(200).optional(),
});

/** POST /title body (structured or documents). Unknown top-level members are ignored. */
export const CreateTitleBodySchema = SyncFlagsSchema.extend({
  attachments: z.array(z.string().url().max(4096)).max(100).optional(),
  account_data: AccountDataSchema.optional(),
  groupId: z
    .string()
    .min(1)
    .max(200)
    .refine((g) => !g.includes('\u0000'), 'must not contain NUL characters')
    .optional(),
});
export type CreateTitleBody = z.infer<typeof CreateTitleBodySchema>;

export const PatchTitleBodySchema = z.object({ account_data: AccountDataSchema.optional() });
