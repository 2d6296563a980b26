/**
 * Pieces every document type uses: value parsers for the fields, the block
 * of a party (names, conjunction, street, city, state, ZIP), and the state
 * a document was issued by (its header: "STATE OF X", "X CERTIFICATE OF
 * TITLE", "USA X", "COMMONWEALTH OF X").
 */
import type { Address } from '../../../core/plugin-api.js';
import type { Layout } from '../layout/layout.js';
import {
  collapse,
  digitish,
  editDistance,
  isStreetLine,
  parseCityLine,
  parseName,
  STATES,
  STATE_CODES,
  type NameParts,
} from '../layout/text.js';

/** Fields as extracted: flat keys (docs/ocr.md lists them per type), strings; '' = the document says there is none. */
export type Fields = Record<string, string>;

/**
 * A VIN-shaped string in a candidate: 17 letters and digits (spaces between
 * groups allowed), or 18 when OCR read a glyph twice (repairVin decides).
 */
export function vinText(s: string): string | null {
  const toks = s
    .toUpperCase()
    .split(/\s+/)
    .map((t) => t.replace(/[^A-Z0-9]/g, ''))
    .filter(Boolean);
  for (const len of [17, 18]) {
    for (let i = 0; i < toks.length; i++) {
      let acc = '';
      for (let j = i; j < toks.length && acc.length < len; j++) acc += toks[j];
      if (acc.length === len && /[A-Z]/.test(acc) && /\d/.test(acc)) return acc;
    }
  }
  return null;
}

const WORDY = /^[A-Z][A-Z0-9&'./-]*$/;

/** A short text value (make, model, body): up to `maxWords` words, no label-like or sentence-like text. */
export const shortText =
  (maxWords: number) =>
  (s: string): string | null => {
    const t = collapse(s.toUpperCase().replace(/[:;]+$/, ''));
    const words = t.split(' ').filter(Boolean);
    if (!words.length || words.length > maxWords || !words.every((w) => WORDY.test(w) || /^\d[A-Z0-9-]*$/.test(w)))
      return null;
    return t;
  };

/** Vehicle makes, to rejoin one OCR split ("J EEP") and to tell a make from other words. */
const MAKES = new Set([
  'ACURA',
  'ALFA ROMEO',
  'AUDI',
  'BMW',
  'BUICK',
  'CADILLAC',
  'CHEVROLET',
  'CHEV',
  'CHEVY',
  'CHRYSLER',
  'DODGE',
  'FIAT',
  'FORD',
  'GENESIS',
  'GMC',
  'HARLEY-DAVIDSON',
  'HONDA',
  'HYUNDAI',
  'INFINITI',
  'JAGUAR',
  'JEEP',
  'KAWASAKI',
  'KIA',
  'LAND ROVER',
  'LEXUS',
  'LINCOLN',
  'MAZDA',
  'MERCEDES-BENZ',
  'MERCURY',
  'MINI',
  'MITSUBISHI',
  'NISSAN',
  'PONTIAC',
  'PORSCHE',
  'RAM',
  'RIVIAN',
  'SATURN',
  'SCION',
  'SUBARU',
  'SUZUKI',
  'TESLA',
  'TOYOTA',
  'VOLKSWAGEN',
  'VOLVO',
  'YAMAHA',
]);

/** A make: a known one with OCR's stray spaces removed, else a short text. */
export function makeText(s: string): string | null {
  const t = collapse(s.toUpperCase());
  const joined = t.replace(/\s+/g, '');
  for (const m of MAKES) if (m.replace(/\s+/g, '') === joined) return m;
  // one misread letter in a known make of 5 letters or more ("HYUNDAT"), or of 4 past its first letter ("JEER")
  const near = [...MAKES].filter(
    (m) =>
      (m.length >= 5 || (m.length === 4 && joined.length === 4 && joined[0] === m[0])) &&
      editDistance(joined, m.replace(/\s+/g, ''), 1) <= 1,
  );
  if (near.length === 1) return near[0]!;
  const first = t.split(' ').slice(0, 2).join(' ');
  return MAKES.has(t.split(' ')[0]!) ? t.split(' ')[0]! : shortText(2)(first);
}

/**
 * A year and a make (and a model) printed as one value under a combined
 * label ("YR/MAKE  2021 NISSAN", "YEAR MAKE MODEL  2019 HONDA CIVIC"):
 * "YEAR\tMAKE\tMODEL", null unless it starts with a model year and a make.
 */
export function yearMakeText(s: string): string | null {
  const m = /^\s*(\S+)\s+(.+)$/.exec(collapse(s.toUpperCase()));
  const year =
    m && /^(19[5-9]\d|20[0-4]\d)$/.test(digitish(m[1]!.replace(/[^0-9A-Z]/g, '')))
      ? digitish(m[1]!.replace(/[^0-9A-Z]/g, ''))
      : null;
  if (!year) return null;
  const words = m![2]!.split(' ');
  // a make of two words ("LAND ROVER", or one OCR split: "J EEP"), else the first word
  const two =
    words.length > 1 ? [...MAKES].find((k) => k.replace(/\s+/g, '') === words.slice(0, 2).join('')) : undefined;
  const make = two ?? makeText(words[0]!);
  return make ? [year, make, words.slice(two ? 2 : 1).join(' ')].join('\t') : null;
}

/** An identifier: the first token with a digit, 4 to 20 letters and digits (dashes kept inside). */
export function identifier(s: string): string | null {
  // OCR doubles a glyph into a sign ("S$"), splits at hyphens ("5903- 107033") and after a leading letter ("Y 124056514"),
  // and reads a speck between two characters as an apostrophe or a quote ("Y'7035033")
  for (const tok of s
    .toUpperCase()
    .replace(/[$]/g, '')
    .replace(/(?<=[A-Z0-9])['`"\u2018\u2019\u201C\u201D](?=[A-Z0-9])/g, '')
    .replace(/\s*-\s*/g, '-')
    .replace(/^([A-Z]) (?=\d{4,}\b)/, '$1')
    .split(/\s+/)) {
    const t = tok.replace(/^[^A-Z0-9]+|[^A-Z0-9]+$/g, '');
    if (t.length >= 4 && t.length <= 22 && /\d/.test(t) && /^[A-Z0-9-]+$/.test(t)) return t;
  }
  return null;
}

/** An odometer reading: up to 7 digits (commas, "MI", "MILES" dropped). */
export function odometer(s: string): string | null {
  const m = /(?<![0-9A-Z])([0-9OIlSB][0-9OIlSB,. ]{0,10})(?:\s*(MI|MILES|KM)\b|$|\s)/i.exec(s.trim());
  if (!m) return null;
  const d = digitish(m[1]!.replace(/[,. ]/g, ''));
  return /^\d{1,7}$/.test(d) ? String(Number(d)) : null;
}

export function odometerBrand(s: string): string | null {
  const t = s.toUpperCase();
  if (/NOT\s*(THE\s*)?ACTUAL|DISCREPANCY|\bNOT\s*ACT/.test(t)) return 'NOT_ACTUAL';
  if (/EXCEED|MECHANICAL\s*LIMIT/.test(t)) return 'EXCESS';
  if (/EXEMPT/.test(t)) return 'EXEMPT';
  if (/ACTUAL/.test(t)) return 'ACTUAL';
  const code = t.replace(/[^A-Z]/g, '');
  return ({ A: 'ACTUAL', N: 'NOT_ACTUAL', X: 'EXCESS', E: 'EXEMPT' } as Record<string, string>)[code] ?? null;
}

/** Title brands as the spec's values, comma-separated in printed order; '' for NONE / CLEAN. */
export function titleBrands(s: string): string | null {
  const t = s.toUpperCase();
  if (/^\s*(NONE|CLEAN|N\/A|NO BRANDS?|-+)\s*$/.test(t)) return '';
  const found: [number, string][] = [];
  const add = (re: RegExp, v: string) => {
    const m = re.exec(t);
    if (m && !found.some((f) => f[1] === v)) found.push([m.index, v]);
  };
  add(/REBUIL|RECONSTRUCT|REBLT/, 'REBUILT');
  if (!found.length) add(/SALVAGE|SALV/, 'SALVAGE');
  add(/FLOOD/, 'FLOODED');
  add(/JUNK|NON-?REPAIRABLE|DISMANTLE/, 'JUNK');
  add(/LEMON|MANUFACTURER BUY ?BACK/, 'LEMON');
  add(/TOTAL(ED)?\s*LOSS|TOTALED/, 'TOTALED');
  if (!found.length) return null;
  return found
    .sort((a, b) => a[0] - b[0])
    .map((f) => f[1])
    .join(',');
}

export interface Party {
  names: NameParts[];
  conjunction: 'AND' | 'OR' | '';
  /** Lines before the street that are not people (a lienholder's name). */
  nameLines: string[];
  street: string;
  city: string;
  state: string;
  zip: string;
}

const CONJ = /\s+(AND\/OR|AND|OR|&)\s+/;

/** Reads a party block: name lines, then street, then "CITY, ST ZIP". `NONE` gives null. */
export function parseParty(lines: string[]): Party | null {
  const ls = lines.map((l) => collapse(l.toUpperCase())).filter(Boolean);
  if (!ls.length || /^(NONE|N\/A|NO LIEN(HOLDER)?S?)\b/.test(ls[0]!)) return null;
  let cityIdx = ls.findIndex((l) => parseCityLine(l) !== null);
  let street = '';
  let nameEnd = ls.length;
  if (cityIdx >= 0) {
    nameEnd = cityIdx;
    if (cityIdx > 0 && isStreetLine(ls[cityIdx - 1]!)) {
      street = ls[cityIdx - 1]!;
      nameEnd = cityIdx - 1;
    } else if (cityIdx > 1 && isStreetLine(ls[cityIdx - 2]!)) {
      street = `${ls[cityIdx - 2]} ${ls[cityIdx - 1]}`;
      nameEnd = cityIdx - 2;
    }
  } else {
    const s = ls.findIndex((l, i) => i > 0 && isStreetLine(l));
    if (s > 0) {
      street = ls[s]!;
      nameEnd = s;
    }
    cityIdx = -1;
  }
  const city = cityIdx >= 0 ? parseCityLine(ls[cityIdx]!)! : { city: '', state: '', zip: '' };
  const nameLines = ls.slice(0, nameEnd);
  let conjunction: Party['conjunction'] = '';
  const parts: string[] = [];
  for (const line of nameLines) {
    // a conjunction alone on its line, or leading the next owner's (OCR may add a speck of punctuation: "OR-")
    if (/^(AND|OR|&|AND\/OR)[-.,:;]?$/.test(line)) {
      conjunction ||= /^OR/.test(line) ? 'OR' : 'AND';
      continue;
    }
    const lead = /^(AND\/OR|AND|OR|&)[-.,:;]?\s+(.*)$/.exec(line);
    if (lead && parts.length) conjunction ||= lead[1] === 'OR' ? 'OR' : 'AND';
    let text = lead && parts.length ? lead[2]! : line;
    // "JOHN SMITH AND" / "SMITH, JOHN OR": the conjunction ends the first owner's line
    const trail = /^(.*\S)\s+(AND\/OR|AND|OR|&)$/.exec(text);
    if (trail) {
      conjunction ||= trail[2] === 'OR' ? 'OR' : 'AND';
      text = trail[1]!;
    }
    const m = text.split(CONJ);
    for (let i = 0; i < m.length; i++) {
      if (i % 2 === 1) conjunction ||= m[i] === 'OR' ? 'OR' : 'AND';
      else if (m[i]!.trim()) parts.push(m[i]!.trim());
    }
  }
  const names = parts.map(parseName).filter((n): n is NameParts => n !== null);
  return {
    names,
    conjunction,
    nameLines,
    street: street.replace(/\s*,$/, ''),
    city: city.city,
    state: city.state,
    zip: city.zip,
  };
}

const STATE_NAMES = Object.keys(STATES).sort((a, b) => b.length - a.length);

/**
 * The issuing state from a page's header: a state name in the top third of
 * the page (the tallest such text wins; street and city lines do not count).
 */
export function headerState(l: Layout): string | null {
  let best: { code: string; score: number } | null = null;
  for (const p of l.phrases) {
    if (p.y0 > l.height * 0.35) continue;
    const t = ` ${collapse(p.text.toUpperCase().replace(/[^A-Z ]/g, ' '))} `;
    if (parseCityLine(p.text) || isStreetLine(p.text)) continue;
    for (const name of STATE_NAMES) {
      if (!t.includes(` ${name} `)) continue;
      const score = p.h * (/(STATE OF|COMMONWEALTH OF|USA)\s/.test(t) ? 1.5 : 1) - p.y0 / l.height;
      if (!best || score > best.score) best = { code: STATES[name]!, score };
      break;
    }
  }
  return best?.code ?? null;
}

/** A two-letter state code or a state name. */
export function stateValue(s: string): string | null {
  const t = collapse(s.toUpperCase().replace(/[^A-Z ]/g, ' '));
  if (STATE_CODES.has(t)) return t;
  return STATES[t] ?? null;
}

/** An Address from parsed parts; undefined unless street, city, state and ZIP are all known. */
export function addressOf(
  p: { street: string; city: string; state: string; zip: string } | null | undefined,
): Address | undefined {
  if (!p?.street || !p.city || !p.state || !p.zip) return undefined;
  return { street1: p.street, city: p.city, state: p.state as NonNullable<Address['state']>, zip: p.zip };
}

/** The issuing state as the schema types it (a two-letter code of the 50 states and DC). */
export const stateCode = (s: string) => s as NonNullable<Address['state']>;
