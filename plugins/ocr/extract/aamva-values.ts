/**
 * The values of AAMVA data elements as issuers write them: names in every
 * form versions 1 to 10 allow (and some they do not), dates in either order,
 * heights and weights in either unit, postal codes.
 */

/** Generational suffixes as DCU/DAE hold them (AAMVA annex D), and as they end a name element. */
const SUFFIXES = new Set([
  'JR',
  'SR',
  'II',
  'III',
  'IV',
  'V',
  'VI',
  'VII',
  'VIII',
  'IX',
  '1ST',
  '2ND',
  '3RD',
  '4TH',
  '5TH',
  '6TH',
  '7TH',
  '8TH',
  '9TH',
]);
/** Suffixes that cannot be a middle initial either ("V" and "I" can): only these are split off the end of given names. */
const GIVEN_SUFFIXES = new Set([...SUFFIXES].filter((s) => s.length > 1));

/** An element's value, '' for the standard's "not available" markers. */
export const value = (v: string | undefined): string => {
  const t = (v ?? '').replace(/\s+/g, ' ').trim();
  return /^(NONE|UNAVL|UNAVAILABLE|UNK|UNKNOWN|N\/A)$/i.test(t) ? '' : t;
};

const suffixOf = (s: string): string => s.replace(/\./g, '').trim().toUpperCase();
const words = (s: string) => s.replace(/,/g, ' ').split(' ').filter(Boolean);

interface HolderName {
  first: string;
  middle: string;
  last: string;
  suffix: string;
}

/** A trailing suffix split off a run of name words ("SMITH JR" -> SMITH, JR); never the only word. */
function trailingSuffix(ws: string[], set: Set<string>): [string[], string] {
  if (ws.length > 1 && set.has(suffixOf(ws[ws.length - 1]!))) return [ws.slice(0, -1), suffixOf(ws[ws.length - 1]!)];
  return [ws, ''];
}

/**
 * Version 1's full name (DAA): `LAST,FIRST MIDDLE`, `LAST,FIRST,MIDDLE`,
 * `LAST,FIRST,MIDDLE,SUFFIX`, `LAST SUFFIX,FIRST`, `LAST$FIRST$MIDDLE`, and
 * with no separator `FIRST MIDDLE LAST [SUFFIX]` (the last word the family
 * name: a name without a separator cannot tell a two-word family name).
 */
function fullName(daa: string): HolderName {
  const t = value(daa);
  if (/[,$]/.test(t)) {
    const parts = t.split(/\s*[,$]\s*/);
    const [lastWords, sfx] = trailingSuffix(words(parts[0]!), GIVEN_SUFFIXES);
    let rest = parts.slice(1);
    let suffix = sfx;
    // a last part that is a suffix ("LAST,FIRST,MIDDLE,JR", "LAST,FIRST,,JR", "LAST,FIRST,JR")
    if (rest.length >= 2 && GIVEN_SUFFIXES.has(suffixOf(rest[rest.length - 1]!))) {
      suffix ||= suffixOf(rest[rest.length - 1]!);
      rest = rest.slice(0, -1);
    }
    let given =
      rest.length >= 2
        ? [words(rest[0]!).join(' '), words(rest.slice(1).join(' ')).join(' ')]
        : (() => {
            const [ws, s] = trailingSuffix(words(rest[0] ?? ''), GIVEN_SUFFIXES);
            suffix ||= s;
            return [ws[0] ?? '', ws.slice(1).join(' ')];
          })();
    given = given.map((g) => g.trim());
    return { last: lastWords.join(' '), first: given[0] ?? '', middle: given[1] ?? '', suffix };
  }
  const [ws, suffix] = trailingSuffix(words(t), SUFFIXES);
  if (ws.length === 1) return { last: ws[0]!, first: '', middle: '', suffix };
  return { first: ws[0] ?? '', middle: ws.slice(1, -1).join(' '), last: ws[ws.length - 1] ?? '', suffix };
}

/**
 * The holder's name from whichever elements the version and the issuer
 * used: family name DCS (versions 2+) or DAB (1); given names DAC with DAD
 * (a DAC of two words with no DAD element is first and middle), or DCT
 * (versions 2-3: "FIRST,MIDDLE" or "FIRST MIDDLE"; some issuers keep it in
 * later versions beside DAD); suffix DCU or DAE, or ending the family name;
 * version 1's DAA when there is no family name element.
 */
export function holderName(e: Record<string, string>): HolderName {
  let last = value(e.DCS) || value(e.DAB);
  let first = '';
  let middle = value(e.DAD);
  let suffix = suffixOf(value(e.DCU) || value(e.DAE));
  const hasMiddleElement = 'DAD' in e;
  if (value(e.DAC)) {
    const ws = words(value(e.DAC));
    if (hasMiddleElement || ws.length === 1) first = ws.join(' ');
    else [first = '', middle] = [ws[0], ws.slice(1).join(' ')];
  } else if (value(e.DCT)) {
    let ws = words(value(e.DCT));
    const mid = words(middle);
    // "FIRST MIDDLE" in DCT beside DAD "MIDDLE": the given names without the middle one
    if (mid.length && ws.length > mid.length && ws.slice(-mid.length).join(' ') === mid.join(' '))
      ws = ws.slice(0, -mid.length);
    first = ws[0] ?? '';
    middle ||= ws.slice(1).join(' ');
  }
  if (!last && value(e.DAA)) {
    const n = fullName(e.DAA!);
    ({ last } = n);
    first ||= n.first;
    middle ||= n.middle;
    suffix ||= n.suffix;
  }
  if (!suffix) {
    const [ws, s] = trailingSuffix(words(last), GIVEN_SUFFIXES);
    if (s) [last, suffix] = [ws.join(' '), s];
  } else {
    // a suffix both in its element and ending the family name
    const [ws, s] = trailingSuffix(words(last), GIVEN_SUFFIXES);
    if (s === suffix) last = ws.join(' ');
  }
  return { first, middle, last: words(last).join(' '), suffix };
}

const validYmd = (y: number, m: number, d: number) =>
  y >= 1900 && y <= 2199 && m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/**
 * An 8-digit date as ISO. The standard writes CCYYMMDD in version 1 and for
 * Canada, MMDDCCYY for the US from version 2; issuers mix them up. A month
 * is at most 12 and a year here starts with 19, 20 or 21, so the order
 * almost always shows itself; when both read, `ymdFirst` decides.
 */
export function date8(v: string | undefined, ymdFirst: boolean): string {
  const d = (v ?? '').replace(/\D/g, '');
  if (d.length !== 8) return '';
  const ymd = [Number(d.slice(0, 4)), Number(d.slice(4, 6)), Number(d.slice(6, 8))] as const;
  const mdy = [Number(d.slice(4, 8)), Number(d.slice(0, 2)), Number(d.slice(2, 4))] as const;
  const order = ymdFirst ? [ymd, mdy] : [mdy, ymd];
  const hit = order.find(([y, m, dd]) => validYmd(y, m, dd));
  return hit ? iso(...hit) : '';
}

/**
 * Height in inches from DAU ("069 IN", "175 cm", version 1's "5-09" or
 * "509" feet and inches) or DAV (centimetres, version 1); null when absent.
 */
export function heightInches(dau: string | undefined, dav: string | undefined): number | null {
  const t = value(dau).toUpperCase();
  let m;
  if ((m = /^(\d{1,3})\s*(IN|INCHES|")?$/.exec(t)) && m[2]) return Number(m[1]);
  if ((m = /^(\d{2,3})\s*CM$/.exec(t))) return Math.round(Number(m[1]) / 2.54);
  if ((m = /^(\d)\s*(?:-|'|FT)\s*(\d{1,2})\s*(?:"|IN)?$/.exec(t))) return Number(m[1]) * 12 + Number(m[2]);
  if ((m = /^([3-8])(\d{2})$/.exec(t)) && Number(m[2]) < 12) return Number(m[1]) * 12 + Number(m[2]);
  if ((m = /^0?(\d{2})$/.exec(t))) return Number(m[1]);
  if ((m = /^(\d{3})$/.exec(t))) return Number(m[1]) > 100 ? Math.round(Number(m[1]) / 2.54) : Number(m[1]);
  const cm = /^(\d{2,3})/.exec(value(dav));
  return cm ? Math.round(Number(cm[1]) / 2.54) : null;
}

/** Weight in pounds from DAW (pounds) or DAX (kilograms); null when absent. */
export function weightPounds(daw: string | undefined, dax: string | undefined): number | null {
  const lb = /^(\d{2,3})/.exec(value(daw));
  if (lb) return Number(lb[1]);
  const kg = /^(\d{2,3})/.exec(value(dax));
  return kg ? Math.round(Number(kg[1]) * 2.20462) : null;
}

/** A ZIP code's five digits, or a Canadian postal code as "A1A 1A1". */
export function postalCode(v: string | undefined): string {
  const t = value(v)
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '');
  if (/^\d{5}/.test(t)) return t.slice(0, 5);
  if (/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(t)) return `${t.slice(0, 3)} ${t.slice(3)}`;
  return t;
}

/** DBC: 1 or M, 2 or F, 9 or X (not specified, versions 9-10). */
export function sexOf(v: string | undefined): string {
  const t = value(v).toUpperCase();
  return t === '1' || t === 'M' ? 'M' : t === '2' || t === 'F' ? 'F' : t === '9' || t === 'X' ? 'X' : '';
}
