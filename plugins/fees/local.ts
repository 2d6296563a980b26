/**
 * County and local figures (states/<code>/local.json, docs/fees.md "County and
 * local rates"): which county an estimate is for (given, or from the ZIP), the
 * local sales tax of that county and city, county fees, and the county's filing
 * office and payee.
 */
import { countyOfZip, lookupPlace, type Office, type StateLocalData } from '../../states/local-schema.js';
import { hasAny, makeItem, noteUnknown, PURCHASE, TITLE_ISSUING, type Ctx } from './context.js';
import { applyRate, formatUsd, pct } from './money.js';
import type { FeeInput, FeeItemOut, SubmissionInstructionsOut } from './types.js';

interface CountyResolution {
  county: string;
  /** `given`: the input named it; `zip`: found from the ZIP in the state's table; null: not known. */
  source: 'given' | 'zip' | null;
  /** Why no county is known, when it is not. */
  why?: string;
}

const micro = (r: number): number => Math.round(r * 1e6) / 1e6;

/** The estimate's county: the given county, else the county the state's ZIP table puts the ZIP in. */
export function resolveCounty(input: FeeInput, local: StateLocalData | null): CountyResolution {
  const given = input.county?.trim();
  if (given) return { county: given, source: 'given' };
  const zip = input.zip?.trim().slice(0, 5);
  if (!zip) return { county: '', source: null };
  if (!/^\d{5}$/.test(zip)) return { county: '', source: null, why: `'${input.zip}' is not a ZIP code` };
  const hit = countyOfZip(local, zip);
  if (hit) return { county: hit, source: 'zip' };
  return { county: '', source: null, why: `ZIP ${zip} is not in ${input.state.toUpperCase()}'s ZIP-to-county table` };
}

type SalesTaxCounties = Extract<NonNullable<StateLocalData['sales_tax']>, { counties: unknown }>['counties'];

/** The highest county or city rate of a rate table, computed once per (read-only) table. */
const highestRates = new WeakMap<object, number>();
function highestRate(counties: SalesTaxCounties): number {
  let top = highestRates.get(counties);
  if (top === undefined) {
    top = 0;
    for (const c of Object.values(counties)) {
      top = Math.max(top, c.rate ?? 0);
      for (const x of Object.values(c.cities ?? {})) top = Math.max(top, x.rate);
    }
    highestRates.set(counties, top);
  }
  return top;
}

interface LocalTaxResult {
  item: FeeItemOut;
  grossCents: number;
  netCents: number;
}

type RateTable = Extract<NonNullable<StateLocalData['sales_tax']>, { counties: unknown }>;

/** The local tax item when the table gives no rate for the estimate's place (members written out: no spread). */
function unknownLocalTax(ctx: Ctx, lt: RateTable, reason: string, county: string): LocalTaxResult {
  const top = micro(highestRate(lt.counties) - (lt.rates_are === 'combined' ? ctx.s.tax.rate.rate : 0));
  const item = makeItem(ctx, {
    feeType: 'LocalTax',
    relevant: PURCHASE,
    dataPath: 'local.sales_tax',
    name: 'Local sales tax',
    description: `County/city rate of the buyer's residence (rate table effective ${lt.effective})`,
    cents: null,
    figure: { src: lt.src },
    county,
    city: ctx.city,
    maxCents: null,
    reason,
    meta: { table_effective: lt.effective, highest_rate_in_table: top },
  });
  return { item, grossCents: 0, netCents: 0 };
}

/**
 * The local sales tax item from the state's rate table, or undefined when the
 * state has no local.json sales tax (the fees.json `tax.local` rules then apply).
 * `base` maps a taxable amount to the part local tax applies to (FL: first $5,000).
 */
export function localSalesTax(
  ctx: Ctx,
  grossCents: number,
  netCents: number,
  base: (c: number) => number,
): LocalTaxResult | undefined {
  const lt = ctx.local?.sales_tax;
  if (!lt) return undefined;
  if (lt.kind === 'none') {
    const item = makeItem(ctx, {
      feeType: 'LocalTax',
      relevant: PURCHASE,
      dataPath: 'local.sales_tax',
      name: 'Local sales tax',
      description: `No county or city sales tax applies to a vehicle in ${ctx.s.name}`,
      // a statewide rule, not a county's figure: county/city stay '' (the estimate's county is in metadata)
      cents: 0,
      figure: { src: lt.src, note: lt.note },
      meta: { rate: 0, ...(ctx.county ? { for_county: ctx.county } : {}), ...(ctx.city ? { for_city: ctx.city } : {}) },
    });
    return { item, grossCents: 0, netCents: 0 };
  }
  const unknown = (reason: string, county = ctx.county): LocalTaxResult => unknownLocalTax(ctx, lt, reason, county);
  if (!ctx.county)
    return unknown(ctx.countyWhy ?? "the county is not known (give the county, or a ZIP in the state's ZIP table)");
  const c = lookupPlace(lt.counties, ctx.county, ctx.countyKey);
  if (!c)
    return unknown(`${ctx.county} County is not in the local rate table shipped for ${ctx.s.state} (not modelled)`);
  const city = ctx.city ? lookupPlace(c.value.cities, ctx.city, ctx.cityKey) : undefined;
  if (lt.city_rule === 'city_required' && !city) {
    return unknown(
      ctx.city
        ? `the rate of ${ctx.city} (${c.key} County) is not in the local rate table shipped`
        : `the rate in ${c.key} County depends on the city, which is not known`,
      c.key,
    );
  }
  const fig = city?.value ?? c.value;
  if (fig.rate === undefined) {
    return unknown(
      ctx.city
        ? `the rate of ${ctx.city} (${c.key} County) is not in the local rate table shipped`
        : `the table shipped has only some cities of ${c.key} County, and the city is not known`,
      c.key,
    );
  }
  const rate = micro(lt.rates_are === 'combined' ? fig.rate - ctx.s.tax.rate.rate : fig.rate);
  // the local part of a combined rate leans on the state rate: an unsourced state rate makes it unconfirmed too
  const splitUnsourced = lt.rates_are === 'combined' && ctx.s.tax.rate.unsourced === true;
  if (rate < 0) return unknown(`the table's combined rate ${pct(fig.rate)} is below the state rate`, c.key);
  const g = applyRate(base(grossCents), rate);
  const n = applyRate(base(netCents), rate);
  const where = city ? `${city.key}, ${c.key} County` : `${c.key} County`;
  const how =
    lt.rates_are === 'combined'
      ? ` (combined rate RATE in the table less the state's ${pct(ctx.s.tax.rate.rate)})`
      : '';
  const capped =
    base(grossCents) !== grossCents ? ` (local tax applies to the first ${formatUsd(base(grossCents))})` : '';
  const item = makeItem(ctx, {
    feeType: 'LocalTax',
    name: `Local sales tax (${where})`,
    description: `${pct(rate)} of ${formatUsd(base(grossCents))}${how.replace('RATE', pct(fig.rate))}${capped}; rate table effective ${lt.effective}`,
    cents: g,
    county: c.key,
    city: city?.key ?? '',
    figure: splitUnsourced
      ? {
          unsourced: true,
          note: `the table's combined rate is sourced, but the state rate it is split by is not (tax.rate in fees.json)`,
        }
      : { src: fig.src ?? lt.src, note: fig.note },
    dataPath: city ? `local.sales_tax.counties.${c.key}.cities.${city.key}` : `local.sales_tax.counties.${c.key}`,
    relevant: PURCHASE,
    meta: {
      rate,
      base: base(grossCents) / 100,
      table_effective: lt.effective,
      ...(lt.rates_are === 'combined' ? { combined_rate: fig.rate } : {}),
    },
  });
  return { item, grossCents: g, netCents: n };
}

type CountyFee = NonNullable<StateLocalData['county_fees']>[number];
type FeeSection = 'registration' | 'title';

/** A section's county fees with their index, kept per (read-only) `county_fees` list: asked twice per estimate. */
const feesByList = new WeakMap<readonly CountyFee[], Partial<Record<FeeSection, { f: CountyFee; i: number }[]>>>();
function sectionFees(list: readonly CountyFee[], section: FeeSection): { f: CountyFee; i: number }[] {
  let bySection = feesByList.get(list);
  if (!bySection) feesByList.set(list, (bySection = {}));
  return (bySection[section] ??= list.map((f, i) => ({ f, i })).filter(({ f }) => f.section === section));
}

/** County fees of a section (local.json `county_fees`), when that section is priced. */
export function countyFees(ctx: Ctx, section: FeeSection, items: FeeItemOut[]): void {
  const list = ctx.local?.county_fees;
  if (!list) return;
  const fees = sectionFees(list, section);
  if (!fees.length) return;
  const relevant = section === 'registration' ? PURCHASE : TITLE_ISSUING;
  if (!hasAny(ctx, relevant)) return;
  for (const { f, i } of fees) {
    const c = ctx.county ? lookupPlace(f.counties, ctx.county, ctx.countyKey) : undefined;
    const feeType = section === 'registration' ? ('RegistrationLocalFee' as const) : ('TitleAdditionalFee' as const);
    const item = c
      ? makeItem(ctx, {
          feeType,
          name: `${f.name} (${c.key} County)`,
          description: `${f.name}: ${formatUsd(c.value.cents)} in ${c.key} County`,
          cents: c.value.cents,
          figure: { src: c.value.src, note: c.value.note ?? f.note },
          dataPath: `local.county_fees[${i}].counties.${c.key}`,
          relevant,
          county: c.key,
        })
      : makeItem(ctx, {
          feeType,
          name: f.name,
          description: `${f.name} of the buyer's county`,
          cents: null,
          maxCents: null,
          figure: f.authority
            ? { src: f.authority, note: f.note }
            : { unsourced: true, note: f.note ?? 'county amount not known' },
          dataPath: `local.county_fees[${i}]`,
          relevant,
          county: ctx.county,
          reason: ctx.county
            ? `${ctx.county} County's amount is not in the data shipped (not modelled)`
            : (ctx.countyWhy ?? 'the county is not known'),
        });
    items.push(item);
    noteUnknown(ctx, section, item);
  }
}

/** The county's filing office, when the state files titles by county and the data has the county. */
export function countyOffice(ctx: Ctx): { key: string; office: Office } | undefined {
  const hit = ctx.county ? lookupPlace(ctx.local?.offices?.counties, ctx.county, ctx.countyKey) : undefined;
  return hit ? { key: hit.key, office: hit.value } : undefined;
}

export function officeOut(o: Office): SubmissionInstructionsOut {
  return { payable_to: o.payable_to, address: addressOut(o.address) };
}

type Address = SubmissionInstructionsOut['address'];

/** A copy of an address, with `street2` only when it has one (two literals: no spread on every estimate). */
export function addressOut(a: Address): Address {
  return a.street2
    ? { street1: a.street1, street2: a.street2, city: a.city, state: a.state, zip: a.zip }
    : { street1: a.street1, city: a.city, state: a.state, zip: a.zip };
}
