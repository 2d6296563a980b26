import { UsageError, print, type Command, type Values } from '../command.js';

const TRANSACTIONS = [
  'new_lien',
  'refinance',
  'purchase',
  'duplicate_title',
  'repossession',
  'lien_release',
  'transfer',
  'duplicate',
];
const TYPES = ['AUTO', 'OHV', 'MOTORCYCLE', 'TRAILER', 'BOAT', 'LOW_SPEED', 'ORV', 'ATV'];
const FUELS = ['electric', 'hybrid', 'plug_in_hybrid', 'other'];

function num(values: Values, flag: string): number | undefined {
  const v = values[flag];
  if (v === undefined) return undefined;
  const n = Number(String(v).replace(/[$,]/g, ''));
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`--${flag} must be a non-negative number (got '${String(v)}')`);
  return n;
}

function date(values: Values, flag: string): string | undefined {
  const v = values[flag];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    throw new UsageError(`--${flag} must be a date YYYY-MM-DD (got '${String(v)}')`);
  return v;
}

function oneOf(
  values: Values,
  flag: string,
  allowed: string[],
  map: (s: string) => string = (s) => s,
): string | undefined {
  const v = values[flag];
  if (v === undefined) return undefined;
  const s = map(String(v));
  if (!allowed.includes(s)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got '${String(v)}')`);
  return s;
}

function zip(values: Values): string | undefined {
  const v = values.zip;
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d{5}(-\d{4})?$/.test(v.trim()))
    throw new UsageError(`--zip must be a ZIP code 12345 or 12345-6789 (got '${String(v)}')`);
  return v.trim();
}

/** The human summary after the JSON: the county used, unsourced figures and what is not modelled. */
function summary(e: {
  metadata: {
    state: string;
    county: string;
    city: string;
    county_source: string | null;
    complete: boolean;
    unsourced: string[];
    not_modelled: string[];
    unknown: string[];
  };
}): string {
  const m = e.metadata;
  const lines = [
    `${m.state}${m.county ? `, ${m.county} County${m.county_source === 'zip' ? ' (from the ZIP)' : ''}` : ', county not known'}${m.city ? `, ${m.city}` : ''}: ${m.complete ? 'complete' : 'incomplete (totals are a lower bound)'}`,
  ];
  lines.push(m.unsourced.length ? `unsourced (shown, not counted): ${m.unsourced.length}` : 'unsourced: none');
  for (const u of m.unsourced) lines.push(`  - ${u}`);
  lines.push(m.not_modelled.length ? `not modelled: ${m.not_modelled.length}` : 'not modelled: none');
  for (const u of m.not_modelled) lines.push(`  - ${u}`);
  return `${lines.join('\n')}\n`;
}

/** `titled fees`: a fee estimate from the command line, printed as JSON (no engine, no database). */
export const fees: Command = {
  name: 'fees',
  summary: 'estimate tax, registration and title fees (prints the fee_estimate JSON)',
  usage:
    'fees --state XX [--price N] [--county C] [--city C] [--zip Z] [--trade-in N] [--transaction T[,T]] [--vehicle-type T] [--year Y] [--weight LBS] [--date YYYY-MM-DD] [...]',
  details: [
    "Money in dollars. The estimate is the spec's EstFees (docs/fees.md): tax, registration and title, each with",
    'items and a total, plus submission_instructions and metadata (unknown amounts, assumptions, totals in cents).',
    'Exit code 0 also when some amounts are unknown: see metadata.complete and metadata.unknown.',
    'After the JSON, stderr lists the figures that are unsourced (shown, never counted in a total) and what the',
    'data does not model for the county given (e.g. local rates of a state without states/<code>/local.json).',
  ].join('\n'),
  options: {
    state: { type: 'string' },
    price: { type: 'string' },
    county: { type: 'string' },
    city: { type: 'string' },
    zip: { type: 'string' },
    quiet: { type: 'boolean' },
    'trade-in': { type: 'string' },
    transaction: { type: 'string' },
    'vehicle-type': { type: 'string' },
    year: { type: 'string' },
    weight: { type: 'string' },
    'gross-weight': { type: 'string' },
    value: { type: 'string' },
    msrp: { type: 'string' },
    fuel: { type: 'string' },
    new: { type: 'boolean' },
    'title-state': { type: 'string' },
    date: { type: 'string' },
    'as-of': { type: 'string' },
    compact: { type: 'boolean' },
    audit: { type: 'boolean' },
  },
  optionHelp: [
    ['--state XX', 'state where the vehicle is titled and registered (required)'],
    ['--price N', 'sale price, dollars'],
    [
      '--county C, --city C',
      "buyer's county and city (county and city tax rates, county fees, the county's filing office)",
    ],
    ['--zip Z', "buyer's ZIP: finds the county when --county is not given (the state's ZIP table)"],
    ['--trade-in N', 'trade-in allowance, dollars'],
    ['--transaction T[,T]', `${TRANSACTIONS.join(', ')} (default new_lien)`],
    ['--vehicle-type T', `${TYPES.join(', ')} (default AUTO)`],
    ['--year Y', 'model year'],
    ['--weight LBS, --gross-weight LBS', 'empty and gross weight'],
    ['--value N, --msrp N', 'market value and original MSRP, dollars'],
    ['--fuel F', FUELS.join(', ')],
    ['--new', 'a new vehicle (first title from a certificate of origin)'],
    ['--title-state XX', 'state that issued the current title'],
    ['--date YYYY-MM-DD', 'date of sale (late fees)'],
    ['--as-of YYYY-MM-DD', 'the day of the estimate (default today)'],
    ['--compact', 'one line of JSON'],
    ['--quiet', 'no unsourced / not-modelled summary on stderr'],
    ['--audit', "instead of an estimate: every state's figures counted (official, unsourced, not modelled)"],
  ],
  async run({ values }) {
    if (values.audit === true) {
      const { auditFigures, formatAudit } = await import('../../plugins/fees/audit.js');
      print(formatAudit(auditFigures()).trimEnd());
      return;
    }
    const state = typeof values.state === 'string' ? values.state.trim().toUpperCase() : '';
    if (!state) throw new UsageError('--state is required');
    const { estimateFees } = await import('../../plugins/fees/calculator.js');
    const { isStateCode } = await import('../../plugins/fees/schedules.js');
    if (!isStateCode(state))
      throw new UsageError(`--state must be a two-letter code of the 50 states or DC (got '${state}')`);
    const tx =
      typeof values.transaction === 'string'
        ? values.transaction
            .split(',')
            .map((s) => s.trim().toLowerCase())
            .filter(Boolean)
        : undefined;
    for (const t of tx ?? [])
      if (!TRANSACTIONS.includes(t))
        throw new UsageError(`--transaction must be one or more of ${TRANSACTIONS.join(', ')} (got '${t}')`);
    const year = num(values, 'year');
    if (year !== undefined && !Number.isInteger(year)) throw new UsageError('--year must be a whole year');
    const titleState =
      typeof values['title-state'] === 'string' ? values['title-state'].trim().toUpperCase() : undefined;
    if (titleState !== undefined && !isStateCode(titleState))
      throw new UsageError(`--title-state must be a two-letter code of the 50 states or DC (got '${titleState}')`);
    const estimate = estimateFees({
      state,
      county: typeof values.county === 'string' ? values.county : undefined,
      city: typeof values.city === 'string' ? values.city : undefined,
      zip: zip(values),
      transaction: tx as never,
      vehicle: {
        type: oneOf(values, 'vehicle-type', TYPES, (s) => s.toUpperCase()) as never,
        year,
        weight_lbs: num(values, 'weight'),
        gross_weight_lbs: num(values, 'gross-weight'),
        value: num(values, 'value'),
        msrp: num(values, 'msrp'),
        fuel: oneOf(values, 'fuel', FUELS, (s) => s.toLowerCase()) as never,
        new: values.new === true ? true : undefined,
        title_state: titleState,
      },
      sale: { price: num(values, 'price'), trade_in: num(values, 'trade-in'), date: date(values, 'date') },
      as_of: date(values, 'as-of') ?? new Date().toISOString().slice(0, 10),
    });
    print(values.compact ? JSON.stringify(estimate) : JSON.stringify(estimate, null, 2));
    if (!values.quiet) process.stderr.write(summary(estimate));
  },
};
