/**
 * Declarative per-state fee data: schema, types and loader.
 *
 * Every state (50 + DC) has a folder `states/<code>/` holding `fees.json`
 * (validated by {@link StateFeeScheduleSchema}) and a `README.md` describing
 * the sources, disagreements between sources and calculator caveats.
 *
 * Conventions
 * - Money is integer cents (`cents`), percentages are decimal rates (`rate`: 0.0625).
 * - Every figure (any object carrying `cents`, `rate`, `value` or a bracket table)
 *   carries its own provenance: either `src: {url, date}` (http(s) URL and the ISO
 *   date it was read) or `unsourced: true` plus a `note` saying why. A number is
 *   never invented: an unsourced figure is better than a guessed one.
 * - Bracket tables (`brackets`, `depreciation`) are covered by the `src` of the
 *   rule object that contains them.
 */
import { z } from 'zod';
import { CompleteAddressSchema, STATE_CODES, type StateCode, type TransactionKind } from '../core/plugin-api-model.js';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORD_DIR, schemaSha256, sha256, stateDir, type FeeRecord } from './fee-data.js';

/** The 50 states + DC (core's one list, core/model/domain.ts). */
export { STATE_CODES, type StateCode };

// ---------------------------------------------------------------------------
// Provenance
// ---------------------------------------------------------------------------

export const SourceSchema = z
  .object({
    url: z.url({ protocol: /^https?$/ }),
    /** ISO date (YYYY-MM-DD) the source was read. */
    date: z.iso.date(),
    /** Optional: where on the page / which table the figure is from. */
    note: z.string().min(1).optional(),
  })
  .strict();
export type Source = z.infer<typeof SourceSchema>;

const provenanceShape = {
  src: SourceSchema.optional(),
  unsourced: z.literal(true).optional(),
  /** Free text. Required when `unsourced` is true (why it could not be sourced). */
  note: z.string().min(1).optional(),
};

type Provenance = { src?: Source; unsourced?: true; note?: string };

function checkProvenance(v: Provenance, ctx: z.RefinementCtx): void {
  if (v.src && v.unsourced) {
    ctx.addIssue({ code: 'custom', message: 'a figure cannot have both `src` and `unsourced`', path: ['unsourced'] });
  } else if (!v.src && !v.unsourced) {
    ctx.addIssue({ code: 'custom', message: 'every figure needs `src` or `unsourced: true`', path: ['src'] });
  } else if (v.unsourced && !v.note) {
    ctx.addIssue({ code: 'custom', message: 'an unsourced figure needs a `note` saying why', path: ['note'] });
  }
}

/** Build a strict object schema that must carry provenance. */
function sourced<S extends z.ZodRawShape>(shape: S) {
  return z
    .object({ ...shape, ...provenanceShape })
    .strict()
    .superRefine((v, ctx) => checkProvenance(v as Provenance, ctx));
}

const Cents = z.int().nonnegative();
const Rate = z.number().min(0).max(1);

// ---------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------

/**
 * A fixed amount of money. `cents` may be null only on an `unsourced` figure
 * whose amount could not be found at all (the calculator must then refuse or
 * flag the estimate rather than assume a number).
 */
const MoneySchema = sourced({ cents: Cents.nullable() }).refine((v) => v.cents !== null || v.unsourced === true, {
  message: '`cents` may only be null on an unsourced figure',
  path: ['cents'],
});
export type Money = z.infer<typeof MoneySchema>;

/** A percentage as a decimal rate (0.0625 = 6.25 %). */
const RateFigureSchema = sourced({ rate: Rate });

/** A sourced yes/no fact (e.g. whether a trade-in reduces the taxable amount). */
const BoolFigureSchema = sourced({ value: z.boolean() });

/**
 * The transactions fees are priced for, in core's one vocabulary
 * (TRANSACTION_KINDS, core/model/domain.ts; plugins/fees, docs/fees.md):
 * `new_lien` a purchase financed with a new lien, `refinance` a lien added to or
 * changed on an existing title (no change of owner), `purchase` a change of
 * owner without a new lien, `duplicate_title` a replacement title,
 * `repossession` the lienholder takes the title, `lien_release` a lien is released.
 */
export const FEE_TRANSACTIONS = [
  'new_lien',
  'refinance',
  'purchase',
  'duplicate_title',
  'repossession',
  'lien_release',
] as const satisfies readonly TransactionKind[];
export type FeeTransaction = (typeof FEE_TRANSACTIONS)[number];
/** Names the fee input accepted before the vocabulary was one (still accepted on input, never written). */
export const FEE_TRANSACTION_ALIASES: Readonly<Record<string, FeeTransaction>> = {
  transfer: 'purchase',
  duplicate: 'duplicate_title',
};

const RangeSchema = z
  .object({ min: z.int().nonnegative().optional(), max: z.int().nonnegative().optional() })
  .strict()
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, {
    message: '`min` must not exceed `max`',
  });

/**
 * When a named fee applies, in terms the calculator can evaluate (the free-text
 * `when` says the same for people). Every condition given must hold; a
 * condition whose input is unknown (no county, no fuel type ...) leaves the fee
 * undecided: the estimate lists it as not included and says why.
 */
const AppliesIfSchema = z
  .object({
    /** Only for these transactions. */
    transactions: z.array(z.enum(FEE_TRANSACTIONS)).min(1).optional(),
    /** Only when the vehicle is titled/registered in this state for the first time (new, or last titled elsewhere). */
    first_in_state: z.boolean().optional(),
    /** Only for residents of these counties (case-insensitive; "X County" matches "X"). */
    counties: z.array(z.string().min(1)).min(1).optional(),
    /** Only for these fuel types (from `vehicle.fuel_type`). */
    fuel_types: z
      .array(z.enum(['electric', 'hybrid', 'plug_in_hybrid']))
      .min(1)
      .optional(),
    /** Only when the registration value base (after class, factor and depreciation) is in this inclusive range of cents. */
    registration_value_cents: RangeSchema.optional(),
    /** Only when the vehicle's weight (the registration rule's weight basis) is in this inclusive range of lbs. */
    weight_lbs: RangeSchema.optional(),
  })
  .strict();
export type AppliesIf = z.infer<typeof AppliesIfSchema>;

/**
 * A named extra fee. Either a fixed `cents` or a `rate` (of the base named in
 * `basis`); `min_cents`/`max_cents` bound a rate-based fee. `optional` marks fees
 * that only apply in some cases (described in `when`).
 */
const NamedFeeSchema = sourced({
  name: z.string().min(1),
  cents: Cents.optional(),
  rate: Rate.optional(),
  basis: z.string().min(1).optional(),
  min_cents: Cents.optional(),
  max_cents: Cents.optional(),
  optional: z.boolean().optional(),
  when: z.string().min(1).optional(),
  /** Machine-readable form of `when` (see {@link AppliesIfSchema}). */
  applies_if: AppliesIfSchema.optional(),
}).refine((v) => (v.cents === undefined) !== (v.rate === undefined), {
  message: 'a named fee has exactly one of `cents` or `rate`',
});
export type NamedFee = z.infer<typeof NamedFeeSchema>;

// ---------------------------------------------------------------------------
// Submission
// ---------------------------------------------------------------------------

/** A filing office's mailing address: core's complete address (every part a letter needs), nothing else. */
export const AddressSchema = CompleteAddressSchema;

const SubmissionInstructionsSchema = sourced({
  /** Who checks / money orders are made payable to. */
  payable_to: z.string().min(1),
  /** Mailing address for title applications. */
  address: AddressSchema,
  /**
   * `state`: mailed to the state agency at `address`. `county`: the state
   * processes titles through county offices; `address` is then an example
   * county office (or the state agency) and `note` says how counties work.
   */
  processed_by: z.enum(['state', 'county']).default('state'),
  // `src` (or `unsourced: true` + `note` when no public page giving the address was found).
});

// ---------------------------------------------------------------------------
// Title
// ---------------------------------------------------------------------------

const TitleFeeOverrideSchema = z
  .object({
    original: MoneySchema.optional(),
    transfer: MoneySchema.optional(),
    duplicate: MoneySchema.optional(),
    lien_recording: MoneySchema.optional(),
  })
  .strict();

const TitleFeesSchema = z
  .object({
    /** First title in this state (new vehicle, or out-of-state vehicle brought in). */
    original: MoneySchema,
    /** Title on a change of ownership, when it differs from `original`. */
    transfer: MoneySchema.optional(),
    /** Replacement (lost/stolen/damaged) title. */
    duplicate: MoneySchema,
    /** Fee for noting a lien on the title; 0 with a source if none is charged separately. */
    lien_recording: MoneySchema,
    /** Other fees charged with every title application (e.g. county processing fees). */
    additional_fees: z.array(NamedFeeSchema).optional(),
    county_overrides: z.record(z.string().min(1), TitleFeeOverrideSchema).optional(),
    note: z.string().min(1).optional(),
  })
  .strict();

// ---------------------------------------------------------------------------
// Registration
// ---------------------------------------------------------------------------

const WeightBracketSchema = z
  .object({
    /** Inclusive lower bound (lbs); defaults to previous bracket's max + 1. */
    min_lbs: z.int().nonnegative().optional(),
    /** Inclusive upper bound (lbs); null = no upper bound. */
    max_lbs: z.int().positive().nullable(),
    cents: Cents,
    /**
     * Per-weight formula: cents per 100 lbs of the vehicle's WHOLE weight, added to
     * `cents` (e.g. HI state weight tax 1.75 cents/lb = 175 per 100 lbs, with `cents: 0`).
     */
    cents_per_100_lbs: Cents.optional(),
  })
  .strict();

const AgeBracketSchema = z
  .object({
    /** Inclusive upper bound on vehicle age in years (model-year based); null = older. */
    max_age_years: z.int().nonnegative().nullable(),
    cents: Cents,
  })
  .strict();

const DepreciationStepSchema = z
  .object({
    /** Vehicle age in years (0 = current model year / first registration year). */
    age_years: z.int().nonnegative(),
    /** Fraction of the base value used at that age (1 = 100 %). */
    factor: z.number().min(0).max(1),
  })
  .strict();

const FlatRule = sourced({ kind: z.literal('flat'), cents: Cents });
const WeightRule = sourced({
  kind: z.literal('weight'),
  /** Which weight: `empty` (curb/shipping) or `gross` (GVW). */
  weight_basis: z.enum(['empty', 'gross']),
  brackets: z.array(WeightBracketSchema).min(1),
});
const ValueRule = sourced({
  kind: z.literal('value'),
  rate: Rate,
  /** What the rate applies to, e.g. "MSRP", "market value", "purchase price". */
  base: z.string().min(1),
  /** Fraction of `base` that is taxed before depreciation (e.g. AZ 0.60 of MSRP). */
  base_factor: z.number().min(0).max(1).optional(),
  depreciation: z.array(DepreciationStepSchema).optional(),
  /** Fixed amount added to the value-based amount. */
  plus_cents: Cents.optional(),
  min_cents: Cents.optional(),
  max_cents: Cents.optional(),
  /** Subtracted from the base before the rate (e.g. MI: only MSRP above $30,000 is rated). */
  base_offset_cents: Cents.optional(),
  /** The base is counted in steps of this size (e.g. MI: per started $1,000; CA: $200 classes). */
  base_step_cents: z.int().positive().optional(),
  /** `up`: whole started steps (default); `midpoint`: the middle of the step's class (CA R&TC 10753.2). */
  base_step_mode: z.enum(['up', 'midpoint']).optional(),
  /** The rule is only known for bases from this amount up; a lower base has no sourced amount (e.g. MI table up to $30,000). */
  min_base_cents: Cents.optional(),
  /** What `depreciation` multiplies: the value `base` (default) or the resulting `fee` (e.g. MI: 90 % of the prior year's fee). */
  depreciation_applies_to: z.enum(['base', 'fee']).optional(),
});
const AgeRule = sourced({
  kind: z.literal('age'),
  brackets: z.array(AgeBracketSchema).min(1),
});

/** A registration rule that is not county-based. */
const BaseRegistrationRuleSchema = z.discriminatedUnion('kind', [FlatRule, WeightRule, ValueRule, AgeRule]);
export type BaseRegistrationRule = z.infer<typeof BaseRegistrationRuleSchema>;

const CountyRule = z
  .object({
    kind: z.literal('county'),
    /** The documented default (state portion / typical passenger car). */
    default: BaseRegistrationRuleSchema,
    /** Extra amount (or full amount, see note) charged per county. */
    county_overrides: z.record(z.string().min(1), MoneySchema),
    /** What the overrides mean: added to the default, or replacing it. */
    overrides_mode: z.enum(['add', 'replace']),
    /** Documented maximum of the county amount (e.g. TX local fees up to $31.50). */
    max_county_cents: MoneySchema.optional(),
    note: z.string().min(1).optional(),
  })
  .strict();

const RegistrationRuleSchema = z.discriminatedUnion('kind', [FlatRule, WeightRule, ValueRule, AgeRule, CountyRule]);

const RegistrationSchema = z
  .object({
    /** Length of the registration period the rule prices, in months. */
    term_months: z.int().positive(),
    /** Passenger car rule. */
    rule: RegistrationRuleSchema,
    /** Fees added to every passenger-car registration (plate, technology, local fees ...). */
    additional_fees: z.array(NamedFeeSchema).optional(),
    note: z.string().min(1).optional(),
  })
  .strict();

// ---------------------------------------------------------------------------
// Tax
// ---------------------------------------------------------------------------

const TaxSchema = z
  .object({
    /** State motor vehicle sales / use / excise tax rate (0 where there is none). */
    rate: RateFigureSchema,
    /**
     * Taxable base: `price` (sales price), `presumptive_value` (a standard value
     * such as TX SPV), `greater_of_price_and_presumptive`, `value` (assessed /
     * book value regardless of price) or `none` (no tax).
     */
    base: z.enum(['price', 'presumptive_value', 'greater_of_price_and_presumptive', 'value', 'none']),
    /** Fraction of the presumptive value used (e.g. TX: 80 % of SPV). */
    presumptive_factor: RateFigureSchema.optional(),
    /** Whether a trade-in allowance reduces the taxable amount. */
    trade_in_credit: BoolFigureSchema,
    /** Cap on the trade-in value that may be deducted (e.g. IL: $10,000 for passenger cars). */
    trade_in_max_cents: MoneySchema.optional(),
    /** Cap on the tax. */
    max_cents: MoneySchema.optional(),
    /** Minimum tax. */
    min_cents: MoneySchema.optional(),
    /** Local (county/city) rates added on top of `rate`, where they apply to vehicles. */
    local: z
      .object({
        applies: BoolFigureSchema,
        max_rate: RateFigureSchema.optional(),
        /** Local rate applies only to this much of the price (e.g. FL surtax: first $5,000). */
        max_taxable_cents: MoneySchema.optional(),
        /**
         * `true`: the local (county/city) rates are not in the data at all ("county not
         * modelled"), so an estimate always shows the local tax as an unknown amount and is
         * incomplete, even when the county is given. Only with `applies.value: true`.
         */
        county_not_modelled: z.literal(true).optional(),
        note: z.string().min(1).optional(),
      })
      .strict()
      .refine((l) => !l.county_not_modelled || l.applies.value, {
        message: '`county_not_modelled` only where local taxes apply',
        path: ['county_not_modelled'],
      })
      .optional(),
    /** Total or additional rate per county (see `county_overrides_mode`). */
    county_overrides: z.record(z.string().min(1), RateFigureSchema).optional(),
    county_overrides_mode: z.enum(['add', 'replace']).optional(),
    /** Other tax-like fees (e.g. document fees). */
    additional_fees: z.array(NamedFeeSchema).optional(),
    note: z.string().min(1).optional(),
  })
  .strict()
  .refine((v) => (v.county_overrides === undefined) === (v.county_overrides_mode === undefined), {
    message: '`county_overrides` and `county_overrides_mode` go together',
  });

// ---------------------------------------------------------------------------
// Late fees
// ---------------------------------------------------------------------------

const LateFeeSchema = sourced({
  applies_to: z.enum(['title', 'registration', 'tax']),
  /** Penalty starts when more than this many days have passed since the sale / due date. */
  days_after_sale: z.int().nonnegative(),
  cents: Cents.optional(),
  rate: Rate.optional(),
  /** Penalty repeats every N days (e.g. TX: $25 per further 30 days). */
  per_days: z.int().positive().optional(),
  /** Amount added per repeat (defaults to `cents`). */
  increment_cents: Cents.optional(),
  max_cents: Cents.optional(),
}).refine((v) => v.cents !== undefined || v.rate !== undefined, {
  message: 'a late fee needs `cents` or `rate`',
});
export type LateFee = z.infer<typeof LateFeeSchema>;

// ---------------------------------------------------------------------------
// The state file
// ---------------------------------------------------------------------------

export const StateFeeScheduleSchema = z
  .object({
    state: z.enum(STATE_CODES),
    name: z.string().min(1),
    last_updated: z.iso.date(),
    submission_instructions: SubmissionInstructionsSchema,
    title: TitleFeesSchema,
    registration: RegistrationSchema,
    tax: TaxSchema,
    late_fees: z.array(LateFeeSchema).default([]),
    /** Other fees that may apply (plates, inspections, dealer fees ...). */
    other_fees: z.array(NamedFeeSchema).optional(),
    note: z.string().min(1).optional(),
  })
  .strict();
export type StateFeeSchedule = z.infer<typeof StateFeeScheduleSchema>;

// ---------------------------------------------------------------------------
// Validation (the loader is states/fee-data.ts)
// ---------------------------------------------------------------------------

export { loadStateFeeSchedule, stateDir } from './fee-data.js';

/** Parse and validate the text of a state's fee file. Throws naming the state and the zod issue path. */
export function parseStateFeeSchedule(code: string, text: string, file: string): StateFeeSchedule {
  const upper = code.toUpperCase();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`fee data for ${upper}: cannot read ${file}: ${(err as Error).message}`);
  }
  const parsed = StateFeeScheduleSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    throw new Error(`fee data for ${upper} is invalid (${file}): ${issues}`);
  }
  if (parsed.data.state !== upper) {
    throw new Error(
      `fee data for ${upper} is invalid (${file}): state: expected "${upper}", got "${parsed.data.state}"`,
    );
  }
  return parsed.data;
}

/**
 * Validate every state's fee file and write its record to `recordDir` (the
 * build does, through bin/build-fee-records.ts; states/fee-data.ts reads
 * them). A file that fails gets no record (its stale one is removed): the
 * loader validates it at run time and throws the same error there.
 */
export function writeFeeRecords(recordDir: string = RECORD_DIR): { written: string[]; failed: string[] } {
  mkdirSync(recordDir, { recursive: true });
  const written: string[] = [];
  const failed: string[] = [];
  for (const code of STATE_CODES) {
    const target = join(recordDir, `${code}.json`);
    const file = join(stateDir(code), 'fees.json');
    try {
      const bytes = readFileSync(file);
      const record: FeeRecord = {
        file_sha256: sha256(bytes),
        schema_sha256: schemaSha256(),
        schedule: parseStateFeeSchedule(code, bytes.toString('utf8'), file),
      };
      writeFileSync(target, JSON.stringify(record));
      written.push(code);
    } catch (err) {
      rmSync(target, { force: true });
      failed.push(`${code}: ${(err as Error).message}`);
    }
  }
  return { written, failed };
}
