/**
 * Text helpers for reading values off documents: tokens for label matching
 * (tolerant to OCR confusions), and parsers for dates, money, years, state
 * names and addresses that accept the forms documents print them in.
 */

/** A word as a label token: uppercase letters and digits only. */
export const tokenKey = (s: string) => s.toUpperCase().replace(/[^A-Z0-9#]/g, '');

/** Letters OCR reads as digits inside words (labels are words). */
const AS_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B', '6': 'G', '2': 'Z', '|': 'I' };
export const letterish = (s: string) => s.replace(/[0125 68|]/g, (c) => AS_LETTER[c] ?? c);

export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Answers of fuzzyMatch by read token, then label word (no key strings built on the hot path). */
const matchMemo = new Map<string, Map<string, boolean>>();
let memoSize = 0;

/** Whether an OCR'd token reads as a label word: exact for short words (a plural allowed from 4 letters), one edit for 5+ letters, two for 10+. */
export function tokenMatches(read: string, want: string): boolean {
  if (read === want) return true;
  if (Math.abs(read.length - want.length) > 2) return false;
  let byWant = matchMemo.get(read);
  let v = byWant?.get(want);
  if (v === undefined) {
    if (memoSize > 200_000) {
      matchMemo.clear();
      memoSize = 0;
      byWant = undefined;
    }
    v = fuzzyMatch(read, want);
    if (!byWant) matchMemo.set(read, (byWant = new Map()));
    byWant.set(want, v);
    memoSize++;
  }
  return v;
}

function fuzzyMatch(read: string, want: string): boolean {
  if (want.length <= 3) return letterish(read) === want;
  const r = letterish(read);
  // a plural of a label word ("NAME(S)", "OWNERS") is the label word
  if (r === want || (want.length >= 4 && r === `${want}S`)) return true;
  const allowed = want.length >= 10 ? 2 : want.length >= 5 ? 1 : 0;
  return allowed > 0 && editDistance(r, want, allowed) <= allowed;
}

export const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Digits OCR reads as letters inside numbers. */
const AS_DIGIT: Record<string, string> = {
  O: '0',
  D: '0',
  Q: '0',
  I: '1',
  L: '1',
  '|': '1',
  l: '1',
  S: '5',
  B: '8',
  Z: '2',
  G: '6',
  o: '0',
};
export const digitish = (s: string) => s.replace(/[ODQIL|lSBZGo]/g, (c) => AS_DIGIT[c] ?? c);

const MONTHS: Record<string, number> = {
  JAN: 1,
  FEB: 2,
  MAR: 3,
  APR: 4,
  MAY: 5,
  JUN: 6,
  JUL: 7,
  AUG: 8,
  SEP: 9,
  SEPT: 9,
  OCT: 10,
  NOV: 11,
  DEC: 12,
  JANUARY: 1,
  FEBRUARY: 2,
  MARCH: 3,
  APRIL: 4,
  JUNE: 6,
  JULY: 7,
  AUGUST: 8,
  SEPTEMBER: 9,
  OCTOBER: 10,
  NOVEMBER: 11,
  DECEMBER: 12,
};

function iso(y: number, m: number, d: number): string | null {
  if (y < 100) y += y >= 50 ? 1900 : 2000;
  if (y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** All dates in a text, in order, as YYYY-MM-DD (US month-first for numeric dates). */
export function findDates(text: string): string[] {
  const out: { at: number; v: string }[] = [];
  // OCR splits the descending J of serif fonts off its word: "J ANUARY", "J UNE"
  const t = text.toUpperCase().replace(/\bJ\s+(ANUARY|UNE|ULY|AN|UN|UL)\b/g, 'J$1');
  // numeric: 03/15/2024, 03-15-2024, 3/15/24, 2024-03-15 (OCR digits repaired first)
  const numeric =
    /(?<![0-9A-Z])([0-9ODQILSBZG|]{1,4})\s?[/.-]\s?([0-9ODQILSBZG|]{1,2})\s?[/.-]\s?([0-9ODQILSBZG|]{2,4})(?![0-9])/g;
  for (const m of t.matchAll(numeric)) {
    const [a, b, c] = [m[1]!, m[2]!, m[3]!].map((x) => Number(digitish(x)));
    if ([a, b, c].some((n) => Number.isNaN(n))) continue;
    const v = m[1]!.length === 4 ? iso(a!, b!, c!) : m[3]!.length === 4 || m[3]!.length === 2 ? iso(c!, a!, b!) : null;
    if (v) out.push({ at: m.index!, v });
  }
  // compact MMDDYYYY (8 digits) only when nothing else matched
  // words: MAR 15 2024, MARCH 15, 2024, 15 MAR 2024, 15-MAR-2024
  const mon = Object.keys(MONTHS)
    .sort((x, y) => y.length - x.length)
    .join('|');
  for (const m of t.matchAll(
    new RegExp(`\\b(${mon})\\.?(?:\\s+|\\s?[-/]\\s?)([0-9OIL]{1,2}),?(?:\\s+|\\s?[-/]\\s?)([0-9OIL]{4})\\b`, 'g'),
  )) {
    const v = iso(Number(digitish(m[3]!)), MONTHS[m[1]!]!, Number(digitish(m[2]!)));
    if (v) out.push({ at: m.index!, v });
  }
  for (const m of t.matchAll(
    new RegExp(`\\b([0-9OIL]{1,2})(?:\\s+|\\s?[-/]\\s?)(${mon})\\.?,?(?:\\s+|\\s?[-/]\\s?)([0-9OIL]{4})\\b`, 'g'),
  )) {
    const v = iso(Number(digitish(m[3]!)), MONTHS[m[2]!]!, Number(digitish(m[1]!)));
    if (v) out.push({ at: m.index!, v });
  }
  return out.sort((a, b) => a.at - b.at).map((x) => x.v);
}

export const parseDate = (text: string): string | null => findDates(text)[0] ?? null;

/** Money amounts in a text, as plain decimals ("12345.67"). Needs a $ sign or cents. */
export function findMoney(text: string): string[] {
  const out: string[] = [];
  const re =
    /(?:\$|\bS(?=\d))\s?([0-9OIlSB][0-9OIlSB,. ]*[0-9OIlSB])|(?<![\d.,])(\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2})(?![\d])/g;
  for (const m of text.matchAll(re)) {
    let s = digitish((m[1] ?? m[2]!).replace(/\s/g, ''));
    // the last separator followed by exactly two digits is the decimal point, any other is a thousands separator
    const dec = /[.,](\d{2})$/.exec(s);
    s = dec ? s.slice(0, dec.index).replace(/[.,]/g, '') + '.' + dec[1] : s.replace(/[.,]/g, '');
    if (/^\d+(\.\d{2})?$/.test(s)) out.push(Number(s).toFixed(2));
  }
  return out;
}

export const parseMoney = (text: string): string | null => findMoney(text)[0] ?? null;

export function parseYear(text: string): string | null {
  for (const tok of text.split(/\s+/)) {
    const d = digitish(tok.replace(/[^0-9A-Z|]/gi, ''));
    if (/^(19[5-9]\d|20[0-4]\d)$/.test(d)) return d;
  }
  return null;
}

export const STATES: Record<string, string> = {
  ALABAMA: 'AL',
  ALASKA: 'AK',
  ARIZONA: 'AZ',
  ARKANSAS: 'AR',
  CALIFORNIA: 'CA',
  COLORADO: 'CO',
  CONNECTICUT: 'CT',
  DELAWARE: 'DE',
  'DISTRICT OF COLUMBIA': 'DC',
  FLORIDA: 'FL',
  GEORGIA: 'GA',
  HAWAII: 'HI',
  IDAHO: 'ID',
  ILLINOIS: 'IL',
  INDIANA: 'IN',
  IOWA: 'IA',
  KANSAS: 'KS',
  KENTUCKY: 'KY',
  LOUISIANA: 'LA',
  MAINE: 'ME',
  MARYLAND: 'MD',
  MASSACHUSETTS: 'MA',
  MICHIGAN: 'MI',
  MINNESOTA: 'MN',
  MISSISSIPPI: 'MS',
  MISSOURI: 'MO',
  MONTANA: 'MT',
  NEBRASKA: 'NE',
  NEVADA: 'NV',
  'NEW HAMPSHIRE': 'NH',
  'NEW JERSEY': 'NJ',
  'NEW MEXICO': 'NM',
  'NEW YORK': 'NY',
  'NORTH CAROLINA': 'NC',
  'NORTH DAKOTA': 'ND',
  OHIO: 'OH',
  OKLAHOMA: 'OK',
  OREGON: 'OR',
  PENNSYLVANIA: 'PA',
  'RHODE ISLAND': 'RI',
  'SOUTH CAROLINA': 'SC',
  'SOUTH DAKOTA': 'SD',
  TENNESSEE: 'TN',
  TEXAS: 'TX',
  UTAH: 'UT',
  VERMONT: 'VT',
  VIRGINIA: 'VA',
  WASHINGTON: 'WA',
  'WEST VIRGINIA': 'WV',
  WISCONSIN: 'WI',
  WYOMING: 'WY',
};
export const STATE_CODES = new Set(Object.values(STATES));

interface CityLine {
  city: string;
  state: string;
  zip: string;
}

/** "SACRAMENTO, CA 95814" / "Sacramento CA 95814-1234" (OCR digit confusions in the ZIP repaired). */
export function parseCityLine(line: string): CityLine | null {
  const m = /^(.*?[A-Z.'])[\s,.]+([A-Z]{2})[\s,.]+([0-9OISBZ]{5})(?:\s?-\s?[0-9OISBZ]{4})?\s*$/.exec(
    collapse(line.toUpperCase()),
  );
  if (!m || !STATE_CODES.has(m[2]!)) return null;
  const zip = digitish(m[3]!);
  if (!/^\d{5}$/.test(zip)) return null;
  return { city: collapse(m[1]!.replace(/[,.]+$/, '')), state: m[2]!, zip };
}

/** A street line: starts with a house number or is a PO box. */
export const isStreetLine = (line: string) =>
  /^\s*(\d+[A-Z]?\s+\S+|P\.?\s?O\.?\s+BOX\s+\S+|[0-9OIL]{2,}\s+[A-Z]{2,})/i.test(line);

export const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'V']);

export interface NameParts {
  name: string;
  first: string;
  middle: string;
  last: string;
  suffix: string;
}

/** "DOE, JOHN Q" (last name first when a comma says so) or "JOHN Q DOE JR". */
export function parseName(raw: string): NameParts | null {
  const clean = collapse(raw.toUpperCase().replace(/[^A-Z,'\- ]/g, ' ')).replace(/\s*,\s*/g, ', ');
  if (!/[A-Z]{2}/.test(clean)) return null;
  let first = '';
  let middle = '';
  let last = '';
  let suffix = '';
  if (clean.includes(',')) {
    const [l, rest] = [clean.slice(0, clean.indexOf(',')), clean.slice(clean.indexOf(',') + 1)];
    const lt = l.trim().split(' ');
    if (lt.length > 1 && SUFFIXES.has(lt[lt.length - 1]!)) suffix = lt.pop()!;
    last = lt.join(' ');
    const gt = rest.replace(/,/g, ' ').trim().split(/\s+/).filter(Boolean);
    if (gt.length > 1 && SUFFIXES.has(gt[gt.length - 1]!)) suffix = gt.pop()!;
    first = gt.shift() ?? '';
    middle = gt.join(' ');
  } else {
    const t = clean.split(' ');
    if (t.length > 2 && SUFFIXES.has(t[t.length - 1]!)) suffix = t.pop()!;
    if (t.length === 1) return null;
    first = t.shift()!;
    last = t.pop()!;
    middle = t.join(' ');
  }
  if (!first || !last) return null;
  return { name: [first, middle, last, suffix].filter(Boolean).join(' '), first, middle, last, suffix };
}
