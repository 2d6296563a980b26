/**
 * The state plugin contract (forms part): what a jurisdiction declares so the
 * `forms` stage can decide, fill and draw its forms. One file of public types
 * for state plugin authors; `states/<code>/forms.ts` holds one `StatePlugin`.
 *
 * A state plugin is data. It says which forms each transaction needs
 * ({@link StatePlugin.forms}), which official templates fill which form and how
 * entry values map onto the template's AcroForm fields
 * ({@link StatePlugin.templates}), what the shared drawn layout adds for the
 * state ({@link StatePlugin.drawn}), and the state's rules
 * ({@link StateRules}). The `forms` stage does the rest: it detects the
 * transactions of an entry, computes {@link FormValues} from it, fills
 * templates found in the configured template folders, and draws every other
 * form from the shared layout.
 */

import type { TransactionKind } from '../core/plugin-api-model.js';
import { TRANSACTION_KINDS } from '../core/plugin-api-pure.js';

/** The single-PDF form fields of a title entry (spec: Document and form fields). */
export const FORM_KEYS = [
  'form_statement_of_fact',
  'form_lien_add',
  'form_title_application',
  'form_duplicate_title',
  'form_repo_affidavit',
  'form_lien_release_letter',
  'form_payoff_authorization',
  'form_letter_of_guarantee',
  'form_title_delivery',
  'form_ucc1',
  'form_instructions',
  'form_ohv_declaration',
  'form_odometer_disclosure',
  'form_addr_oats',
  'form_vin_verification',
  'form_low_speed_affidavit',
  // beyond the spec's list (docs/decisions.md): a state's own bill of sale filed with a purchase (KS, MT, ND) or a lost record (CO)
  'form_bill_of_sale',
] as const;
export type FormKey = (typeof FORM_KEYS)[number];

/** The per-signer form arrays of a title entry: one `{signer_name, form_generic, signer_id, form}` per signer. */
export const SIGNER_FORM_KEYS = ['forms_poa', 'forms_name_oats', 'forms_non_obligor'] as const;
export type SignerFormKey = (typeof SIGNER_FORM_KEYS)[number];

/** Any form a state can declare. */
export type FormKind = FormKey | SignerFormKey;
export const FORM_KINDS: readonly FormKind[] = [...FORM_KEYS, ...SIGNER_FORM_KEYS];

/** Transactions (core's one vocabulary, core/model/domain.ts). */
export const TRANSACTIONS = TRANSACTION_KINDS;
export type Transaction = TransactionKind;

// ---------------------------------------------------------------------------
// Values: what mappings and layouts read
// ---------------------------------------------------------------------------

/** An address as forms print it. Every member is a string ('' when unknown). */
export interface AddressValues {
  street1: string;
  street2: string;
  /** street1 and street2 on one line. */
  street: string;
  city: string;
  state: string;
  zip: string;
  /** The first five digits of the ZIP code. */
  zip5: string;
  county: string;
  /** `street, city, ST zip`. */
  one_line: string;
  /** `city, ST zip`. */
  city_state_zip: string;
}

/** A person (owner, borrower, signer, seller) as forms print them. */
export interface PersonValues {
  id: string;
  /** Full name, `First Middle Last Suffix` (or the entry's `name`). */
  name: string;
  /** `LAST, FIRST MIDDLE SUFFIX` (as California forms ask), or `name` when the parts are unknown. */
  name_lfm: string;
  first: string;
  middle: string;
  last: string;
  suffix: string;
  dob: string;
  ssn: string;
  /** The last four digits of the SSN. */
  ssn_last4: string;
  dl_number: string;
  dl_state: string;
  phone: string;
  /** The phone's three-digit area code. */
  phone_area: string;
  /** The phone without its area code, `555-0100`. */
  phone_local: string;
  email: string;
  addr: AddressValues;
  /** Mailing address (`addr_mailing`, else `addr`). */
  mailing: AddressValues;
  /** The mailing address only when it differs from `addr` (forms that ask "if different"); otherwise all ''. */
  mailing_if_different: AddressValues;
  /** The residence address only when the mailing address differs from it (forms that put the mailing address first); otherwise all ''. */
  residence_if_different: AddressValues;
  /** Other names this person is known by (`oats_names`), comma-separated. */
  other_names: string;
  insurance_provider: string;
  insurance_policy: string;
  /** Whether the person is present at all. */
  present: boolean;
  /** The date of birth's month, day and four-digit year, for split date fields ('' when unknown). */
  dob_mm: string;
  dob_dd: string;
  dob_yyyy: string;
  /** Whether a driver license or ID number is known. */
  has_dl: boolean;
  /** Whether the person is a non-obligor owner (on the title, not on the loan). */
  non_obligor: boolean;
}

/** A lien as forms print it. */
export interface LienValues {
  holder_name: string;
  /** The holder's name, or `NONE` when there is no lien (forms that must not be left blank). */
  holder_name_or_none: string;
  holder_addr: AddressValues;
  /** `Name, street, city, ST zip`. */
  holder_name_addr: string;
  holder_phone: string;
  holder_email: string;
  elt_id: string;
  feid: string;
  /** Who signs for the lienholder. */
  signatory: PersonValues;
  /** The lien's date (for a new lien: the security agreement's signing date). */
  date: string;
  amount: string;
  lien_id: string;
  release_date: string;
  /** `Y` when there is a lien, `N` when not (forms that ask "Lien Y/N"). */
  present_yn: string;
  present: boolean;
}

/**
 * Everything a form can show, computed once per entry by the `forms` stage
 * (per signer for the per-signer forms). Strings are '' when unknown, dates are
 * `MM/DD/YYYY`, money is `1,234.56`. Mappings address members by dotted path:
 * {@link TextPath} for strings, {@link FlagPath} for booleans.
 */
export interface FormValues {
  /** The date of generation. */
  today: string;
  state: {
    code: string;
    name: string;
    /** The agency that titles vehicles (`StatePlugin.agency`). */
    agency: string;
    /** Where the packet is mailed and who is paid (from the state's fee data when it has one). */
    submit_to: string;
    payable_to: string;
  };
  vehicle: {
    vin: string;
    year: string;
    make: string;
    model: string;
    body: string;
    /** `2019 HONDA`. */
    year_make: string;
    /** `2019 HONDA ACCORD`. */
    description: string;
    color: string;
    color_secondary: string;
    fuel: string;
    plate: string;
    plate_state: string;
    engine_number: string;
    weight_empty: string;
    weight_gross: string;
    axles: string;
    length: string;
    width: string;
    /** The spec's vehicle type (`AUTO`, `OHV`, ...). */
    type: string;
    type_label: string;
    is_auto: boolean;
    /** Self-propelled and not a vessel (cars, motorcycles, OHVs, low-speed vehicles). */
    is_motor_vehicle: boolean;
    is_motorcycle: boolean;
    is_ohv: boolean;
    is_trailer: boolean;
    is_boat: boolean;
    is_low_speed: boolean;
  };
  title: {
    number: string;
    issuing_state: string;
    issuing_state_name: string;
    issuing_county: string;
    issuance_date: string;
    brand: string;
    /** Odometer reading without tenths, digits only. */
    odometer: string;
    /** The reading right-aligned in six places (space-padded), for six-box odometer fields. */
    odometer_6: string;
    odometer_unit: string;
    odometer_actual: boolean;
    odometer_not_actual: boolean;
    odometer_exceeds: boolean;
    odometer_exempt: boolean;
    odometer_kilometers: boolean;
    is_electronic: boolean;
    /** The title was issued by the filing state (or its issuer is unknown): its number is the state's own title number. */
    is_in_state: boolean;
    /** The current title is at hand to be signed over (no duplicate is needed). */
    is_available: boolean;
    /** Why a duplicate is needed: lost (the default when the title is unavailable) or stolen. */
    is_lost: boolean;
    is_stolen: boolean;
    /** The same as a word for forms that ask "has been ___": `lost` or `stolen` ('' when no duplicate is needed). */
    missing_reason: string;
    /** Co-owners are joined by AND / OR. */
    owners_and: boolean;
    owners_or: boolean;
    /** The owners of record on one line. */
    owners_one_line: string;
  };
  /** The owners after this transaction (the applicants): owners of record minus dropped plus added, else the buyers or borrowers. */
  owner1: PersonValues;
  owner2: PersonValues;
  owner3: PersonValues;
  /** All applicants' names on one line, joined by the title's conjunction. */
  owners_line: string;
  /** How many applicants there are (`2`), '' when none. */
  owners_count: string;
  /** The owners of record (on the current title). */
  record_owner1: PersonValues;
  record_owner2: PersonValues;
  /** The seller or transferor (sale seller, else the first owner of record). */
  seller: PersonValues;
  /** The primary borrower. */
  borrower1: PersonValues;
  /** The new lien (loan.new_lienholder). */
  lien: LienValues;
  /** The lien being paid off (refinance: loan.prior_lien) or released; else the lien of record. */
  prior_lien: LienValues;
  /** The first active lien on the current title (the legal owner of record). */
  record_lien: LienValues;
  loan: {
    loan_id: string;
    amount: string;
    payoff_amount: string;
    per_diem: string;
    security_agreement_date: string;
    /** Where the released title goes (`loan.release_title_to_address`, else the first owner's mailing address). */
    release_to: AddressValues;
  };
  sale: {
    date: string;
    /** The sale date's month, day and four-digit year, for split date fields. */
    date_mm: string;
    date_dd: string;
    date_yyyy: string;
    price: string;
    /** The price's whole dollars (`21,500`) and cents (`00`), for split price fields. */
    price_dollars: string;
    price_cents: string;
    type: string;
    is_gift: boolean;
    is_trade: boolean;
    is_purchase: boolean;
    /** A new vehicle (sale type NEW) or a used one (any other sale). */
    is_new: boolean;
    is_used: boolean;
    present: boolean;
    state: string;
  };
  /** For per-signer forms: the signer; otherwise the first owner. */
  signer: PersonValues & { role: string };
  /** Who is given power of attorney (the new lienholder, else blank). */
  grantee: string;
  txn: { [T in Transaction]: boolean } & {
    /** Ownership changes hands (sale, add/drop owner, repossession). */
    ownership_change: boolean;
    /** No ownership change. */
    same_owner: boolean;
    /** Ownership changes hands on a title the filing state issued (a transfer, not a first title in the state). */
    in_state_transfer: boolean;
    /** A new title is issued to the applicant: ownership changes or the vehicle comes from another state. */
    new_title: boolean;
    /** Only liens change (a corrected title with a lien added or removed). */
    lien_only: boolean;
    /** A duplicate of the same owner's title, nothing else. */
    duplicate_only: boolean;
  };
  /** Always true (map a checkbox that is always checked). */
  always: boolean;
}

/** Dotted paths of the members of `T` whose type is `V` (`vehicle.vin`, `lien.holder_addr.city`). */
export type PathsOf<T, V, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends V ? `${P}${K}` : T[K] extends object ? PathsOf<T[K], V, `${P}${K}.`> : never;
}[keyof T & string];

/** A path to a string member of {@link FormValues}. */
export type TextPath = PathsOf<FormValues, string>;
/** A path to a boolean member of {@link FormValues}. */
export type FlagPath = PathsOf<FormValues, boolean>;

// ---------------------------------------------------------------------------
// Official templates
// ---------------------------------------------------------------------------

/** One AcroForm field filled from the entry. */
export type FieldMapping =
  /**
   * A text field: the value at `value`; several paths are joined with `join`
   * (default a space), empty parts skipped. With `if`, filled only when that flag is true.
   */
  | { field: string; value: TextPath | readonly TextPath[]; join?: string; upper?: boolean; if?: FlagPath }
  /** A row of one-character boxes (a comb drawn as separate fields): the value's characters, left to right; spaces leave a box empty. */
  | { chars: readonly string[]; value: TextPath; upper?: boolean; if?: FlagPath }
  /** A checkbox, checked when the flag (every flag of a list) is true, and left unchecked otherwise. */
  | { check: string; when: FlagPath | readonly FlagPath[] }
  /** A radio group: the first option whose flag (every flag of a list) is true is selected; none when no flag is. */
  | { radio: string; choose: readonly { option: string; when: FlagPath | readonly FlagPath[] }[] }
  /** A dropdown: the option equal (ignoring case) to the value at `value`; none when no option is. */
  | { select: string; value: TextPath };

/**
 * A box on a page of a flattened template, in points from the top-left corner
 * of the page, as `pdftotext -bbox-layout` reports word boxes:
 * `[left, top, right, bottom]`. Measured from the form itself: the blank space
 * where a person would write, beside or under the printed label.
 */
export type OverlayBox = readonly [left: number, top: number, right: number, bottom: number];

/** One value written onto a flattened (field-less) official form at a measured place. */
export type OverlayMapping =
  /**
   * Text: the value at `value` (several paths joined with `join`, default a
   * space), fitted into `box` on `page` (0-based, default 0): the largest size
   * up to 10 pt that fits one line, else wrapped. `text` names the form's box
   * as printed (`APPLICANT'S PRINTED NAME`). With `if`, written only when that flag is true.
   */
  | {
      text: string;
      page?: number;
      box: OverlayBox;
      value: TextPath | readonly TextPath[];
      join?: string;
      upper?: boolean;
      if?: FlagPath;
      /** The box is a row of this many equal character cells (a VIN comb): one character centred in each. */
      comb?: number;
    }
  /** A check mark (an X) in the box when the flag (every flag of a list) is true. */
  | { mark: string; page?: number; box: OverlayBox; when: FlagPath | readonly FlagPath[] };

/**
 * An official form published by the state: fillable (AcroForm `fields`) or
 * flattened (no fields: `fields: []` and values written at measured places, `overlay`). The repository does not
 * ship it: the file is looked up by `file` in the configured template folders
 * (config `plugins.forms.templateDirs`); when absent the form is drawn instead.
 */
export interface TemplateSpec {
  /** Path under a template folder, e.g. `tx/130-U.pdf`. */
  file: string;
  /** The state's name of the form, e.g. `Form 130-U, Application for Texas Title and/or Registration`. */
  name: string;
  /** Where the state publishes it (`titled templates fetch` downloads it from here). */
  url?: string;
  /**
   * SHA-256 (hex) of the revision the mapping was written against. A file
   * whose hash differs is a different revision: `titled templates` reports it
   * and `fetch` keeps it aside instead of installing it.
   */
  sha256?: string;
  /**
   * The form number as printed on the form (`HSMV 82040`, `BMV 3774`): the
   * tester finds it in the filled PDF's text, so a wrong or re-laid template is
   * noticed. Required with `overlay`.
   */
  printed?: string;
  /** AcroForm fields filled from the entry (`[]` for a flattened form). */
  fields: readonly FieldMapping[];
  /** For a flattened form: what is written where on its pages. */
  overlay?: readonly OverlayMapping[];
  /**
   * Filled only when this flag holds; otherwise the form is drawn. (Idaho's
   * ITD-3738 bill of sale carries the odometer disclosure of a sale: it is the
   * odometer document of a purchase, not of an owner added to a title.)
   */
  when?: FlagPath;
  /**
   * With `when`: the form exists only as this official form, so when the flag
   * fails it is left out of the packet rather than drawn (Colorado's DR 2116
   * re-establishes a lost Colorado title: a title from elsewhere needs none).
   */
  only?: boolean;
  /**
   * Further official forms filed with this one, appended to its file (each
   * filled only when its `when` holds and its file is found; its fields under
   * a parent field named by its file's base name, `MVR-181.Year`). North
   * Carolina's seller files the MVR-181 damage disclosure with the MVR-180
   * odometer statement.
   */
  attach?: readonly TemplateSpec[];
  /**
   * Where people sign the official form: the blank space above each
   * signature line, measured from the form like overlay boxes (the signing
   * plugin writes electronic signatures there; docs/signing.md).
   */
  signatures?: readonly TemplateSignature[];
  /**
   * Pages of the template that belong in the packet (0-based); default all.
   * (California's REG 262 is one page; a POA needs only its section 5, but the page is kept whole.)
   */
  pages?: readonly number[];
}

/** One signature line of an official form. */
export interface TemplateSignature {
  /** 0-based page. */
  page: number;
  /** `[left, top, right, bottom]` in points from the page's top-left corner (what `pdftotext -bbox` reports). */
  box: readonly [number, number, number, number];
  /** `[left, right]` of the date blank on the same line, when the form has one. */
  date?: readonly [number, number];
  /** Who signs there: an applicant of the form's values. */
  signer: 'owner1' | 'owner2' | 'owner3';
  /** What the form calls the signer (`Applicant/Owner`). */
  role: string;
}

// ---------------------------------------------------------------------------
// Drawn layouts
// ---------------------------------------------------------------------------

/** What a state adds to the shared drawn layout of one form (all optional). */
export interface DrawnSpec {
  /** The form's title on the page (default: the shared layout's title). */
  title?: string;
  /** The state's own form this drawn form stands for (printed under the title), e.g. `Form VTR-34`. */
  officialName?: string;
  /** Extra fields, in a section headed with the state's name. */
  extraFields?: readonly { label: string; value: TextPath }[];
  /** Extra statements printed above the signatures. */
  statements?: readonly string[];
  /** Adds a notary acknowledgment block after the signatures. */
  notarize?: boolean;
}

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

/**
 * Where a rule came from: a URL and the date it was read, a document of the
 * project (the spec), or `unsourced` with a note saying why.
 */
export type RuleSource =
  { url: string; date: string; note?: string } | { doc: string; note?: string } | { unsourced: true; note: string };

/** A person field a state requires on its power of attorney (legacy POST /poa table of the spec). */
export type PoaField = 'ssn' | 'dob' | 'plate' | 'dl';

export interface StateRules {
  /**
   * Whether signing needs the original paper title returned (physical title
   * collection; the instructions tell the signer to enclose it). An electronic
   * title never needs it.
   */
  originalTitleRequired: boolean;
  /** Person fields the state's power of attorney must carry; the POA prints them for each signer. */
  poaFields: readonly PoaField[];
  /** Whether the state's power of attorney must be notarized (adds a notary block). */
  poaNotarized: boolean;
  /** Vehicle types the state does not title: a lien on them is perfected with a UCC-1 instead of a lien addition. */
  untitledTypes: readonly string[];
  /** Where the rules came from. */
  sources: readonly RuleSource[];
}

// ---------------------------------------------------------------------------
// The plugin
// ---------------------------------------------------------------------------

/**
 * A state plugin: one jurisdiction (50 states and DC), declared in
 * `states/<code>/forms.ts` with {@link defineState} (states/standard.ts), listed
 * in `states/registry.ts`, documented in `states/<code>/README.md` and
 * docs/forms.md, and tested by `test/states/<code>/forms.test.ts` through the
 * shared tester (`states/tester.ts`).
 *
 * @example
 * ```ts
 * // states/tx/forms.ts
 * import { defineState } from '../standard.js';
 *
 * export default defineState({
 *   code: 'TX',
 *   name: 'Texas',
 *   agency: 'Texas Department of Motor Vehicles',
 *   // Texas records a new lien on the title application itself (130-U box 34).
 *   forms: { new_lien: ['form_title_application', 'forms_poa'] },
 *   templates: {
 *     form_title_application: {
 *       file: 'tx/130-U.pdf',
 *       name: 'Form 130-U, Application for Texas Title and/or Registration',
 *       fields: [
 *         { field: '1 Vehicle Identification Number', value: 'vehicle.vin' },
 *         { field: '34 First Lienholder Name if any Mailing Address City State Zip', value: 'lien.holder_name_addr' },
 *         { check: 'Title Only', when: 'txn.new_title' },
 *       ],
 *     },
 *   },
 *   drawn: { form_duplicate_title: { officialName: 'Form VTR-34, Application for a Certified Copy of Title' } },
 *   rules: { sources: [{ url: 'https://www.txdmv.gov/', date: '2026-11-20' }] },
 * });
 * ```
 */
export interface StatePlugin {
  /** Two-letter code, upper case (`TX`, `DC`). */
  readonly code: string;
  /** The jurisdiction's name (`Texas`, `District of Columbia`). */
  readonly name: string;
  /** The agency that titles vehicles (`Texas Department of Motor Vehicles`). */
  readonly agency: string;
  /**
   * Which forms each transaction needs. The forms of every transaction an
   * entry has are generated together (each once); `always` applies to every
   * entry. A form the entry has no data for is left out (a name affidavit
   * needs a signer with other names, say).
   */
  readonly forms: Readonly<Partial<Record<Transaction | 'always', readonly FormKind[]>>>;
  /** Official templates by form; a form without one (or whose file is absent) is drawn. */
  readonly templates: Readonly<Partial<Record<FormKind, TemplateSpec>>>;
  /** What the shared drawn layout adds for this state, by form. */
  readonly drawn: Readonly<Partial<Record<FormKind, DrawnSpec>>>;
  readonly rules: Readonly<StateRules>;
}
