/**
 * County and local fee data of a state: `states/<code>/local.json` (optional;
 * a state without it has no county or local rates modelled). docs/fees.md,
 * "County and local rates".
 *
 * - `sales_tax`: the local sales/use tax on a vehicle purchase by county, and by
 *   city where a city's rate differs, read from the state's own rate table (its
 *   `effective` date and `src`). `kind: "none"` says (with a source) that no
 *   local tax applies to vehicles anywhere in the state.
 * - `county_fees`: fees that differ by county (e.g. TX road and bridge fee),
 *   each county's amount with its own source.
 * - `zip_counties`: ZIP codes and the county each lies in, so an address without
 *   a county still finds its county. Each ZIP cites the official page it was
 *   read from; a ZIP that is not listed leaves the county unknown.
 * - `zip_table`: a ZIP-to-county table read from an official data file (the US Census
 *   Bureau's ZCTA-to-county relationship file), with the file's source and the rule by
 *   which a ZIP was put in a county (ZIPs split between counties are left out). Used
 *   after `zip_counties`.
 * - `offices`: where a county's residents file titles (address and payee NAME),
 *   for states whose titles are filed with county offices.
 *
 * A county key is a county's name without "County" ("Miami-Dade", "Los Angeles");
 * lookups ignore case, dots and apostrophes, and a trailing "County"/"Parish".
 */
import { z } from 'zod';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddressSchema, SourceSchema, stateDir, STATE_CODES } from './fee-schema.js';

const Rate = z.number().min(0).max(1);
const Cents = z.int().nonnegative();
const CountyKey = z
  .string()
  .min(1)
  .regex(/^(?!.*\bCounty$)/, 'a county key is the name without "County"');

/** A local rate: the rate, and optionally its own source (else the table's). */
const LocalRateSchema = z
  .object({
    rate: Rate,
    src: SourceSchema.optional(),
    note: z.string().min(1).optional(),
  })
  .strict();

const CountyRatesSchema = LocalRateSchema.extend({
  /** The county's rate (outside the cities listed); absent when the table shipped has only some of its cities. */
  rate: Rate.optional(),
  /** Cities whose rate differs from the county's (`city_rule` says what an unlisted city gets). */
  cities: z.record(z.string().min(1), LocalRateSchema).optional(),
}).strict();

const RateTableSchema = z
  .object({
    kind: z.literal('table'),
    /**
     * `local`: each rate is the local part, added to the state rate.
     * `combined`: each rate is the table's total (state + local); the local part is total - state rate.
     */
    rates_are: z.enum(['local', 'combined']),
    /**
     * `exceptions`: the county's rate applies everywhere in it except the cities listed.
     * `city_required`: the rate depends on the city (CA district taxes); an unlisted or missing city leaves the local tax unknown.
     */
    city_rule: z.enum(['exceptions', 'city_required']),
    /** Date the table's rates took effect (YYYY-MM-DD). */
    effective: z.iso.date(),
    src: SourceSchema,
    counties: z.record(CountyKey, CountyRatesSchema),
    note: z.string().min(1).optional(),
  })
  .strict();

const NoLocalTaxSchema = z
  .object({
    kind: z.literal('none'),
    /** The publication saying no local sales tax applies to vehicles (e.g. a state-only title tax). */
    src: SourceSchema,
    note: z.string().min(1),
  })
  .strict();

const LocalSalesTaxSchema = z.discriminatedUnion('kind', [RateTableSchema, NoLocalTaxSchema]);

const CountyAmountSchema = z.object({ cents: Cents, src: SourceSchema, note: z.string().min(1).optional() }).strict();

const CountyFeeSchema = z
  .object({
    name: z.string().min(1),
    /** The estimate section the fee belongs to. */
    section: z.enum(['registration', 'title']),
    /** The statute or rule allowing the fee (its maximum), where there is one. */
    authority: SourceSchema.optional(),
    counties: z.record(CountyKey, CountyAmountSchema),
    note: z.string().min(1).optional(),
  })
  .strict();

const ZipSchema = z.object({ county: CountyKey, src: SourceSchema, note: z.string().min(1).optional() }).strict();

const ZipCode = z.string().regex(/^\d{5}$/, 'a ZIP is five digits');

/** ZIPs by county, read from one official data file (docs/fees.md, "County and local rates"). */
const ZipTableSchema = z
  .object({
    src: SourceSchema,
    /** How a ZIP was put in a county (e.g. "at least 99% of the ZCTA's 2010 population in the county"). */
    rule: z.string().min(1),
    counties: z.record(CountyKey, z.array(ZipCode).min(1)),
    note: z.string().min(1).optional(),
  })
  .strict();

const OfficeSchema = z
  .object({
    /** The payee's name, exactly as checks are written (not a sentence). */
    payable_to: z
      .string()
      .min(1)
      .max(80)
      .regex(/^[^.;:]*$/, 'payable_to is a payee name, not a sentence'),
    address: AddressSchema,
    src: SourceSchema,
    note: z.string().min(1).optional(),
  })
  .strict();
export type Office = z.infer<typeof OfficeSchema>;

export const StateLocalDataSchema = z
  .object({
    state: z.enum(STATE_CODES),
    last_updated: z.iso.date(),
    sales_tax: LocalSalesTaxSchema.optional(),
    county_fees: z.array(CountyFeeSchema).optional(),
    zip_counties: z.record(z.string().regex(/^\d{5}$/), ZipSchema).optional(),
    zip_table: ZipTableSchema.optional(),
    offices: z
      .object({
        /** How filing by county works in this state (one sentence or two). */
        note: z.string().min(1),
        counties: z.record(CountyKey, OfficeSchema),
      })
      .strict()
      .optional(),
    note: z.string().min(1).optional(),
  })
  .strict();
export type StateLocalData = z.infer<typeof StateLocalDataSchema>;

/** Normal form of a county or city name for lookups. */
export const placeKey = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[.']/g, '')
    .replace(/\s+(county|parish|borough)$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The entry of `record` whose key names `name` (see {@link placeKey}). A caller looking up the
 * same name in several records may pass its `placeKey` (`nameKey`) worked out once.
 */
export function lookupPlace<T>(
  record: Record<string, T> | undefined,
  name: string,
  nameKey?: string,
): { key: string; value: T } | undefined {
  if (!record || !name.trim()) return undefined;
  const key = placeIndex(record).get(nameKey ?? placeKey(name));
  return key === undefined ? undefined : { key, value: record[key]! };
}

/**
 * Each record's keys by their normal form, built on the first look-up (the data is
 * read-only once loaded): a look-up is one Map get, not a regex pass over every key.
 * The first key of a normal form wins, as the scan in key order did.
 */
const placeIndexes = new WeakMap<object, Map<string, string>>();
function placeIndex(record: Record<string, unknown>): Map<string, string> {
  let index = placeIndexes.get(record);
  if (!index) {
    index = new Map();
    for (const key of Object.keys(record)) {
      const k = placeKey(key);
      if (!index.has(k)) index.set(k, key);
    }
    placeIndexes.set(record, index);
  }
  return index;
}

/** ZIPs the state's ZIP data puts in two counties (zip_table, or zip_table against zip_counties). */
export function zipTableClashes(data: StateLocalData): string[] {
  const seen = new Map<string, string>(Object.entries(data.zip_counties ?? {}).map(([zip, z0]) => [zip, z0.county]));
  const out: string[] = [];
  for (const [county, zips] of Object.entries(data.zip_table?.counties ?? {})) {
    for (const zip of zips) {
      const other = seen.get(zip);
      if (other !== undefined && placeKey(other) !== placeKey(county)) {
        out.push(`ZIP ${zip} is put in both ${other} and ${county}`);
      }
      seen.set(zip, county);
    }
  }
  return out;
}

/** The county the state's ZIP data puts `zip` in: `zip_counties` first, then `zip_table`. */
export function countyOfZip(local: StateLocalData | null, zip: string): string | undefined {
  const hit = local?.zip_counties?.[zip];
  if (hit) return hit.county;
  const table = local?.zip_table?.counties;
  return table ? zipIndex(table).get(zip) : undefined;
}

/** A ZIP table's ZIP -> county map, built once per (read-only) table; the first county listing a ZIP wins. */
const zipIndexes = new WeakMap<object, Map<string, string>>();
function zipIndex(counties: Record<string, readonly string[]>): Map<string, string> {
  let index = zipIndexes.get(counties);
  if (!index) {
    index = new Map();
    for (const [county, zips] of Object.entries(counties))
      for (const z of zips) if (!index.has(z)) index.set(z, county);
    zipIndexes.set(counties, index);
  }
  return index;
}

/** Read and validate `states/<code>/local.json`; null when the state has none. Throws naming the state and the issue path. */
export function loadStateLocalData(code: string): StateLocalData | null {
  const upper = code.toUpperCase();
  const file = join(stateDir(code), 'local.json');
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`local fee data for ${upper}: cannot read ${file}: ${(err as Error).message}`);
  }
  const parsed = StateLocalDataSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    throw new Error(`local fee data for ${upper} is invalid (${file}): ${issues}`);
  }
  if (parsed.data.state !== upper)
    throw new Error(
      `local fee data for ${upper} is invalid (${file}): state: expected "${upper}", got "${parsed.data.state}"`,
    );
  for (const [zip, z0] of Object.entries(parsed.data.zip_counties ?? {})) {
    if (!z0.county.trim()) throw new Error(`local fee data for ${upper}: zip ${zip} has no county`);
  }
  const clash = zipTableClashes(parsed.data)[0];
  if (clash) throw new Error(`local fee data for ${upper}: ${clash}`);
  return parsed.data;
}
