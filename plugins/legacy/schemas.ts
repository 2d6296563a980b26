/**
 * The legacy request bodies (spec: POST /poa, POST /generate_forms), as zod
 * schemas. Unknown members are refused (strict objects), so a misspelt field
 * is named in the 400 instead of being dropped.
 */
import { z } from 'zod';
import { AddressSchema, InsuranceSchema, US_STATES } from '../../core/plugin-api.js';
import { legacyDate } from './dates.js';

const text = (max = 500) => z.string().trim().max(max);
const opt = text().optional();
const flag = z.boolean().optional();
const stateCode = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(US_STATES, { message: 'must be a two-letter code of the 50 states or DC' }));
/** A date in MM-DD-YYYY, MM/DD/YYYY (or YYYY-MM-DD), as ISO YYYY-MM-DD. */
const date = z.string().transform((s, ctx) => {
  const iso = legacyDate(s);
  if (iso) return iso;
  ctx.addIssue({ code: 'custom', message: 'must be a date as MM-DD-YYYY or MM/DD/YYYY' });
  return z.NEVER;
});
/** A number, or a string holding one (legacy clients send both). */
const amount = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/, 'must be a number'),
  ])
  .transform(Number)
  .pipe(z.number().min(0).max(1_000_000_000));
const numericText = z.union([z.string().trim().max(100), z.number()]).transform(String);

export const LegacyPersonSchema = z
  .object({
    customer_id: opt,
    full_name: opt,
    dob: date.optional(),
    dlid: z
      .object({
        number: opt,
        state: opt,
        sex: opt,
        expiration_date: date.optional(),
        first_name: opt,
        middle_name: opt,
        last_name: opt,
        addr: AddressSchema.nullish(),
      })
      .strict()
      .nullish(),
    ssn: opt,
    addr: AddressSchema.nullish(),
    addr_mailing: AddressSchema.nullish(),
    contact_phone: opt,
    contact_email: opt,
    insurance: InsuranceSchema.nullish(),
    ownership_type: opt,
  })
  .strict();
export type LegacyPerson = z.infer<typeof LegacyPersonSchema>;

export const LegacyLienholderSchema = z
  .object({
    name: opt,
    address_org: AddressSchema.nullish(),
    address_vault: AddressSchema.nullish(),
    elt_id: opt,
    feid: opt,
    email: opt,
    signatory: LegacyPersonSchema.nullish(),
    contact_email: opt,
    contact_phone: opt,
  })
  .strict();
export type LegacyLienholder = z.infer<typeof LegacyLienholderSchema>;

export const LegacyLienSchema = z
  .object({
    lien_date: date.optional(),
    lien_amount: numericText.optional(),
    lien_id: opt,
    lienholder: LegacyLienholderSchema.nullish(),
    lien_release_signed: flag,
    lien_release_date: date.optional(),
  })
  .strict();

const ODOMETER = z.enum(['ACTUAL', 'NOT_ACTUAL', 'EXCESS', 'EXEMPT']);
const BRAND = z.enum(['SALVAGE', 'JUNK', 'TOTALED', 'LEMON', 'FLOODED', 'REBUILT']);

const LegacyPreviousTitleSchema = z
  .object({
    number: opt,
    issuing_state: stateCode.optional(),
    issuance_date: date.optional(),
    brand: BRAND.optional(),
    brand_code: opt,
    odometer_reading: numericText.optional(),
    odometer_code: opt,
    odometer_code_translation: ODOMETER.optional(),
  })
  .strict();

const LegacyTitleSchema = z
  .object({
    number: opt,
    issuing_state: stateCode.optional(),
    issuing_county: opt,
    issuance_date: date.optional(),
    brand: BRAND.optional(),
    brand_code: opt,
    odometer_reading: numericText.optional(),
    odometer_code: opt,
    odometer_code_translation: ODOMETER.optional(),
    has_liens: flag,
    active_liens: z.array(LegacyLienSchema).max(20).optional(),
    is_electronic: flag,
    is_and: flag,
    is_or: flag,
    is_leased: flag,
    previous_title: z.array(LegacyPreviousTitleSchema).max(50).optional(),
    number_of_owners: z.number().int().min(0).max(100).optional(),
    owners: z.array(LegacyPersonSchema).max(20).optional(),
  })
  .strict();

export const LegacyVehicleSchema = z
  .object({
    vin: text(64),
    year: z
      .union([
        z.number().int(),
        z
          .string()
          .trim()
          .regex(/^\d{4}$/, 'must be a four-digit year'),
      ])
      .transform(Number)
      .pipe(z.number().int().min(1886).max(2100))
      .optional(),
    make: opt,
    model: opt,
    body: opt,
    type: z.enum(['AUTO', 'OHV', 'MOTORCYCLE', 'TRAILER', 'BOAT']).optional(),
    color: opt,
    color_secondary: opt,
    fuel_type: opt,
    use: opt,
    weight: numericText.optional(),
    weight_gross: numericText.optional(),
    weight_unladen: numericText.optional(),
    width: numericText.optional(),
    length: numericText.optional(),
    bhpcc: numericText.optional(),
    number_of_axles: numericText.optional(),
    number_of_cylinders: numericText.optional(),
    license_plate: opt,
    license_plate_type: opt,
    motorcycle_engine_number: opt,
    registration_status: z.enum(['ACTIVE', 'EXPIRED', 'SUSPENDED']).optional(),
    registration_expiration_date: date.optional(),
    date_of_sale: date.optional(),
    est_fees: z
      .array(z.object({ feeType: opt, name: opt, value: amount }).strict())
      .max(100)
      .optional(),
    insurance: InsuranceSchema.nullish(),
    title: LegacyTitleSchema.nullish(),
  })
  .strict();

export const LegacyTransactionSchema = z
  .object({
    request_date: date.optional(),
    id: opt,
    state: stateCode,
    pull_nmvtis: flag,
    pull_state_data: flag,
    borrower: z.array(LegacyPersonSchema).max(20).optional(),
    security_agreement_sign_date: date.optional(),
    loan_amount: amount.optional(),
    new_lienholder: LegacyLienholderSchema.nullish(),
    prior_lien: LegacyLienSchema.nullish(),
    add_owner: z.array(LegacyPersonSchema).max(20).optional(),
    drop_owner: z.array(LegacyPersonSchema).max(20).optional(),
  })
  .strict();

export const GenerateFormsBodySchema = z
  .object({
    transaction: LegacyTransactionSchema,
    vehicle: LegacyVehicleSchema,
  })
  .strict();
export type GenerateFormsBody = z.infer<typeof GenerateFormsBodySchema>;

/** POST /poa. The per-state rules (which of ssn, dob, plate) are checked after parsing (rules.ts). */
export const PoaBodySchema = z
  .object({
    vin: text(64),
    owner_email: z.string().trim().email('must be an e-mail address').max(254),
    pull_live: flag,
    state: stateCode.optional(),
    owner_full_name: text(200).min(1).optional(),
    owner_address: text(300).min(1).optional(),
    owner_ssn: z
      .string()
      .trim()
      .regex(/^\d{3}-?\d{2}-?\d{4}$/, 'must be a social security number (9 digits)')
      .optional(),
    owner_dob: date.optional(),
    owner_phone: text(40).optional(),
    plate: text(16).min(1).optional(),
    has_coowner: flag,
    coowner_full_name: text(200).min(1).optional(),
    coowner_address: text(300).min(1).optional(),
    coowner_ssn: z
      .string()
      .trim()
      .regex(/^\d{3}-?\d{2}-?\d{4}$/, 'must be a social security number (9 digits)')
      .optional(),
    coowner_dob: date.optional(),
    coowner_phone: text(40).optional(),
    account_id: text(200).optional(),
    grantee: text(200).optional(),
  })
  .strict();
export type PoaBody = z.infer<typeof PoaBodySchema>;
