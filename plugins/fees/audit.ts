/**
 * The figure audit behind `titled fees --audit` (docs/fees.md, "Figure audit"):
 * how many figures of the fee data cite an official page, how many are unsourced,
 * what the data does not model, and whether the ten largest states estimate the
 * local tax of a sample address in each of their three largest counties.
 *
 * A figure is an object of fees.json carrying a money amount, rate, yes/no fact
 * or table (`cents`, `rate`, `value`, `brackets` ...) with its provenance, and in
 * local.json each county or city rate, county fee amount and statewide "no local
 * tax" fact. ZIP rows and office addresses are data, not figures: not counted.
 */
import { STATE_CODES } from '../../states/fee-schema.js';
import { officialReason } from '../../states/official-sources.js';
import type { StateLocalData } from '../../states/local-schema.js';
import { estimateFees } from './calculator.js';
import { feeSchedule, localSchedule } from './schedules.js';

/** The ten largest states by population (issue 19). */
export const LARGE_STATES = ['CA', 'TX', 'FL', 'NY', 'PA', 'IL', 'OH', 'GA', 'NC', 'MI'] as const;

/**
 * How many counties (county equivalents) the states with a local rate table have, so the audit can
 * tell a complete table from a partial one (US Census Bureau county counts).
 */
export const COUNTY_COUNTS: Readonly<Record<string, number>> = {
  CA: 58,
  FL: 67,
  IL: 102,
  NY: 62,
  OH: 88,
  PA: 67,
};

/** Each large state's three largest counties by population, with a city for a sample address. */
export const LARGEST_COUNTIES: Readonly<
  Record<(typeof LARGE_STATES)[number], ReadonlyArray<readonly [string, string]>>
> = {
  CA: [
    ['Los Angeles', 'Alhambra'],
    ['San Diego', 'San Diego'],
    ['Orange', 'Anaheim'],
  ],
  TX: [
    ['Harris', 'Houston'],
    ['Dallas', 'Dallas'],
    ['Tarrant', 'Fort Worth'],
  ],
  FL: [
    ['Miami-Dade', 'Miami'],
    ['Broward', 'Fort Lauderdale'],
    ['Palm Beach', 'West Palm Beach'],
  ],
  NY: [
    ['Kings', 'Brooklyn'],
    ['Queens', 'Queens'],
    ['New York', 'New York'],
  ],
  PA: [
    ['Philadelphia', 'Philadelphia'],
    ['Allegheny', 'Pittsburgh'],
    ['Montgomery', 'Norristown'],
  ],
  IL: [
    ['Cook', 'Chicago'],
    ['DuPage', 'Naperville'],
    ['Lake', 'Antioch'],
  ],
  OH: [
    ['Franklin', 'Columbus'],
    ['Cuyahoga', 'Cleveland'],
    ['Hamilton', 'Cincinnati'],
  ],
  GA: [
    ['Fulton', 'Atlanta'],
    ['Gwinnett', 'Lawrenceville'],
    ['Cobb', 'Marietta'],
  ],
  NC: [
    ['Wake', 'Raleigh'],
    ['Mecklenburg', 'Charlotte'],
    ['Guilford', 'Greensboro'],
  ],
  MI: [
    ['Wayne', 'Detroit'],
    ['Oakland', 'Pontiac'],
    ['Macomb', 'Mount Clemens'],
  ],
};

const FIGURE_KEYS = ['cents', 'rate', 'value', 'brackets', 'depreciation', 'min_cents', 'max_cents', 'plus_cents'];

export interface FigureCount {
  official: number;
  unsourced: number;
  other_source: number;
}
export interface CountyCheck {
  county: string;
  city: string;
  local_tax: number | null;
  why?: string;
}
export interface StateAudit extends FigureCount {
  state: string;
  /** What the data says it does not model for the state (one line each). */
  not_modelled: string[];
  /** Large states only: the local tax of a $10,000 purchase in each of the three largest counties. */
  counties?: CountyCheck[];
}

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => !!v && typeof v === 'object' && !Array.isArray(v);
const srcUrl = (o: Node): string | undefined => (isObj(o.src) && typeof o.src.url === 'string' ? o.src.url : undefined);

function add(c: FigureCount, url: string | undefined, unsourced: boolean): void {
  if (unsourced) c.unsourced++;
  else if (url && officialReason(url)) c.official++;
  else c.other_source++;
}

/** Count the figures of a fees.json tree (a figure's own provenance; tables covered by their owner). */
function countFees(node: unknown, c: FigureCount): void {
  if (Array.isArray(node)) return node.forEach((el) => countFees(el, c));
  if (!isObj(node)) return;
  const isFigure = FIGURE_KEYS.some(
    (k) => k in node && (typeof node[k] !== 'object' || node[k] === null || Array.isArray(node[k])),
  );
  if (isFigure && (node.src || node.unsourced)) add(c, srcUrl(node), node.unsourced === true);
  for (const [k, v] of Object.entries(node))
    if (k !== 'src' && k !== 'brackets' && k !== 'depreciation') countFees(v, c);
}

/**
 * Count the figures of a local.json: rate rows (a row without its own source has the table's),
 * county fee amounts and the statewide "none" fact.
 */
function countLocal(l: StateLocalData, c: FigureCount): void {
  const st = l.sales_tax;
  if (st?.kind === 'none') add(c, st.src.url, false);
  if (st?.kind === 'table') {
    for (const county of Object.values(st.counties)) {
      if (county.rate !== undefined) add(c, county.src?.url ?? st.src.url, false);
      for (const city of Object.values(county.cities ?? {})) add(c, city.src?.url ?? st.src.url, false);
    }
  }
  for (const f of l.county_fees ?? []) for (const a of Object.values(f.counties)) add(c, a.src.url, false);
}

function notModelled(code: string, l: StateLocalData | null): string[] {
  const s = feeSchedule(code);
  const out: string[] = [];
  const local = s.tax.local;
  if (local?.applies.value && !l?.sales_tax) out.push('local sales tax by county and city (no rate table)');
  if (l?.sales_tax?.kind === 'table') {
    const n = Object.keys(l.sales_tax.counties).length;
    const all = COUNTY_COUNTS[code];
    if (all === undefined || n < all)
      out.push(`local sales tax: only the ${n}${all ? ` of ${all}` : ''} counties in the table shipped`);
  }
  const rule = s.registration.rule;
  if (rule.kind === 'county' && Object.keys(rule.county_overrides).length === 0)
    out.push('county registration fees: no county amounts');
  return out;
}

/** The local tax of a $10,000 purchase at a sample address of each of the state's three largest counties. */
function countyChecks(code: (typeof LARGE_STATES)[number]): CountyCheck[] {
  return LARGEST_COUNTIES[code].map(([county, city]) => {
    const e = estimateFees({
      state: code,
      county,
      city,
      transaction: 'purchase',
      sale: { price: 10_000 },
      as_of: '2026-11-25',
    });
    const li = e.tax.items.find((i) => i.feeType === 'LocalTax');
    if (!li)
      return { county, city, local_tax: null, why: 'no local tax item (local taxes marked not applying, unsourced)' };
    return li.value === null
      ? { county, city, local_tax: null, why: String(li.metadata.reason ?? 'unknown') }
      : { county, city, local_tax: li.value };
  });
}

/** The audit of every state (50 + DC), the ten largest first. */
export function auditFigures(): StateAudit[] {
  const large = new Set<string>(LARGE_STATES);
  const order = [...LARGE_STATES, ...STATE_CODES.filter((c) => !large.has(c))];
  return order.map((code) => {
    const c: FigureCount = { official: 0, unsourced: 0, other_source: 0 };
    countFees(feeSchedule(code), c);
    const l = localSchedule(code);
    if (l) countLocal(l, c);
    const a: StateAudit = { state: code, ...c, not_modelled: notModelled(code, l) };
    if (large.has(code)) a.counties = countyChecks(code as (typeof LARGE_STATES)[number]);
    return a;
  });
}

/** Totals of a group of states. */
export function totals(rows: StateAudit[]): FigureCount & { not_modelled: number } {
  const t = { official: 0, unsourced: 0, other_source: 0, not_modelled: 0 };
  for (const r of rows) {
    t.official += r.official;
    t.unsourced += r.unsourced;
    t.other_source += r.other_source;
    t.not_modelled += r.not_modelled.length;
  }
  return t;
}

const countyLine = (k: CountyCheck): string =>
  k.local_tax === null ? `not estimated: ${k.why}` : `local tax on $10,000 = $${k.local_tax.toFixed(2)}`;

/** The audit as text lines (the CLI prints it). */
export function formatAudit(rows: StateAudit[]): string {
  const large = rows.filter((r) => r.counties);
  const other = rows.filter((r) => !r.counties);
  const line = (r: StateAudit) =>
    `${r.state}  official ${r.official}  unsourced ${r.unsourced}${r.other_source ? `  other ${r.other_source}` : ''}` +
    `${r.not_modelled.length ? `  not modelled: ${r.not_modelled.join('; ')}` : ''}`;
  const out: string[] = [
    "Figures by state (official = cites the state's own publication; unsourced = shown, never counted)",
  ];
  for (const r of large) {
    out.push(line(r));
    for (const k of r.counties!) out.push(`    ${k.county} (${k.city}): ${countyLine(k)}`);
  }
  for (const r of other) out.push(line(r));
  const sum = (label: string, t: ReturnType<typeof totals>) =>
    `${label}: official ${t.official}, unsourced ${t.unsourced}, ` +
    `other sources ${t.other_source}, not modelled ${t.not_modelled}`;
  out.push(
    sum('10 largest states', totals(large)),
    sum(`other ${other.length} states`, totals(other)),
    sum('all', totals(rows)),
  );
  const estimated = large.filter((r) => r.counties!.every((k) => k.local_tax !== null)).map((r) => r.state);
  out.push(`large states estimating the local tax in all three largest counties: ${estimated.join(', ') || 'none'}`);
  return `${out.join('\n')}\n`;
}
