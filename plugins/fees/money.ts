/**
 * Money arithmetic in integer cents. Rates are applied in exact integer
 * arithmetic at a resolution of 1e-6 (every rate and factor in states/ has at
 * most six decimals; the tester checks it), rounding half up to the cent.
 */

const RATE_SCALE = 1_000_000;

/** Dollars (as given by a client) to integer cents, rounded half up; negative or non-finite gives null. */
export function toCents(dollars: number | null | undefined): number | null {
  if (typeof dollars !== 'number' || !Number.isFinite(dollars) || dollars < 0) return null;
  return Math.round(dollars * 100 + 1e-9);
}

/** Integer cents to dollars (the output unit). */
export function toDollars(cents: number): number;
export function toDollars(cents: number | null): number | null;
export function toDollars(cents: number | null): number | null {
  return cents === null ? null : cents / 100;
}

/** The rate as an integer number of millionths (0.0625 -> 62500). */
function rateMicros(rate: number): number {
  return Math.round(rate * RATE_SCALE);
}

/** `cents x rate`, rounded half up to a whole cent, in exact integer arithmetic. */
export function applyRate(cents: number, rate: number): number {
  const micros = rateMicros(rate);
  const product = cents * micros;
  if (Number.isSafeInteger(product)) return Math.floor((product + RATE_SCALE / 2) / RATE_SCALE);
  const big = BigInt(cents) * BigInt(micros);
  return Number((big + BigInt(RATE_SCALE / 2)) / BigInt(RATE_SCALE));
}

/** Whether a rate has at most six decimals (exactly representable by `applyRate`). */
export function isMicroRate(rate: number): boolean {
  return Math.abs(rate * RATE_SCALE - Math.round(rate * RATE_SCALE)) < 1e-6;
}

export const clamp = (v: number, min: number | undefined, max: number | undefined): number =>
  Math.min(max ?? Infinity, Math.max(min ?? -Infinity, v));

/**
 * A rate for messages: 0.0625 -> `6.25%` (at most four decimals, trailing zeros dropped).
 * Every rate comes from the (read-only) data, so the texts are kept: toFixed and the regex
 * ran several times per estimate. The bound only guards against a caller passing anything.
 */
export function pct(rate: number): string {
  let text = pctTexts.get(rate);
  if (text === undefined) {
    text = `${(rate * 100).toFixed(4).replace(/\.?0+$/, '')}%`;
    if (pctTexts.size >= 10_000) pctTexts.clear();
    pctTexts.set(rate, text);
  }
  return text;
}
const pctTexts = new Map<number, string>();

/** `$1,562.50` for messages. */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  if (!Number.isSafeInteger(abs))
    return `${sign}$${groupThousands(String(Math.floor(abs / 100)))}.${cents2(abs % 100)}`;
  // whole cents (always, in practice): separators by hand. toLocaleString goes through ICU and
  // a look-ahead regex was next; this runs several times per estimate
  const dollars = String(Math.floor(abs / 100));
  let grouped = dollars;
  if (dollars.length > 3) {
    const head = dollars.length % 3 || 3;
    grouped = dollars.slice(0, head);
    for (let i = head; i < dollars.length; i += 3) grouped += ',' + dollars.slice(i, i + 3);
  }
  const c = abs % 100;
  return `${sign}$${grouped}.${c < 10 ? '0' : ''}${c}`;
}

const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const cents2 = (c: number): string => String(c).padStart(2, '0');

/** Whole days from `from` to `to` (YYYY-MM-DD, UTC); null when either is not a date. */
export function daysBetween(from: string, to: string): number | null {
  const a = utcDay(from.slice(0, 10));
  const b = utcDay(to.slice(0, 10));
  if (Number.isNaN(a) || Number.isNaN(b)) return null;
  return Math.round((b - a) / 86_400_000);
}

/**
 * `Date.parse(day + "T00:00:00Z")`, without building and parsing that string for a plain
 * YYYY-MM-DD (late fees take two per section and estimate). Like Date.parse, a day up to 31
 * rolls over into the next month (2026-02-30 is March 2); years before 100 and anything
 * else go to Date.parse itself (Date.UTC would read year 50 as 1950).
 */
function utcDay(day: string): number {
  if (day.length === 10 && day[4] === '-' && day[7] === '-') {
    const y = digits(day, 0, 4);
    const mo = digits(day, 5, 7);
    const d = digits(day, 8, 10);
    if (y >= 100 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31) return Date.UTC(y, mo - 1, d);
  }
  return Date.parse(`${day}T00:00:00Z`);
}

/** The number the ASCII digits s[from..to) write; -1 when one is not a digit. */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}
