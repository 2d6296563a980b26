/**
 * Driver license front (labels such as DL/EXP/LN/FN/DOB, or the AAMVA field
 * numbers 4d, 1, 2, 3, 4b, 8, 15; unlabelled address and name lines) and
 * back (the AAMVA barcode, the authoritative source when decoded).
 */
import type { AccountData, Person } from '../../../core/plugin-api.js';
import type { Layout, Phrase } from '../layout/layout.js';
import {
  collapse,
  findDates,
  isStreetLine,
  parseCityLine,
  parseDate,
  parseName,
  STATES,
  SUFFIXES,
} from '../layout/text.js';
import type { AamvaRecord } from './aamva.js';
import { addressOf, headerState, identifier, parseParty, type Fields } from './common.js';
import { runSpecs } from './run.js';

/** A generational suffix as OCR reads it ("IIl", "Il", "1II") made right. */
const suffixToken = (t: string) => (/^[IL1|l]{2,3}$/i.test(t) ? 'I'.repeat(t.length) : /^[IL1|]V$/i.test(t) ? 'IV' : t);

const nameText = (s: string): string | null => {
  const t = collapse(s.toUpperCase().replace(/[^A-Z ,'-]/g, ' '));
  return /^[A-Z][A-Z ,'-]{1,40}$/.test(t) && t.split(' ').length <= 4 ? t : null;
};
const sexValue = (s: string): string | null => {
  const m = /^\s*(M|F|MALE|FEMALE|X)\b/i.exec(s);
  return m ? m[1]!.toUpperCase().charAt(0) : null;
};
const dlNumber = (s: string): string | null => {
  let id = identifier(s.replace(/\s+(?=\d)/g, ''));
  // a label OCR glued to the number ("OLN175178101" for "DLN 175178101")
  const glued = id && /^(DLN|OLN|IDN|DL|LIC|NO|ID)(\d{5,}|[A-Z]{1,2}\d{5,})$/.exec(id);
  if (glued) id = glued[2]!;
  return id && id.length >= 5 ? id : null;
};

const SPECS = [
  {
    key: 'license_number',
    labels: [
      'DL',
      'DLN',
      'DL NO',
      'DL #',
      'DL#',
      'LIC',
      'LIC NO',
      'LIC #',
      'LICENSE NO',
      'LICENSE NUMBER',
      'LICENSE #',
      'DRIVER LICENSE NO',
      'DRIVERS LICENSE NO',
      'ID NO',
      'ID #',
      '4D',
      '4D DLN',
      '4D DL',
      '4D LIC',
      '4D IDN',
      '4D ID',
      'IDN',
      'ID NUMBER',
      'CUSTOMER ID',
      'NUMBER',
    ],
    parse: dlNumber,
    typed: true,
  },
  {
    key: 'expiration',
    labels: ['EXP', 'EXPIRES', 'EXP DATE', 'EXPIRATION', 'EXPIRATION DATE', '4B', '4B EXP', '4B EXPIRES'],
    parse: parseDate,
    typed: true,
  },
  {
    key: 'dob',
    labels: ['DOB', 'DATE OF BIRTH', 'BIRTH DATE', 'BIRTHDATE', '3', '3 DOB', 'BORN'],
    parse: parseDate,
    typed: true,
  },
  {
    key: 'issued',
    labels: ['ISS', 'ISSUED', 'ISSUE DATE', '4A', '4A ISS', 'DATE ISSUED'],
    parse: parseDate,
    typed: true,
  },
  { key: 'sex', labels: ['SEX', '15', '15 SEX', 'GENDER'], parse: sexValue },
  { key: 'name_last', labels: ['LN', 'LAST NAME', 'LAST', '1', 'FAMILY NAME', 'SURNAME'], parse: nameText },
  { key: 'name_given', labels: ['FN', 'FIRST NAME', 'FIRST', '2', 'GIVEN NAME', 'GIVEN NAMES'], parse: nameText },
];
const BLOCKS = [{ key: 'address', labels: ['ADDRESS', 'ADDR', '8', 'RESIDENCE ADDRESS', 'ADD'] }];
const STOPPERS = [
  'HGT',
  'HEIGHT',
  '16',
  '16 HGT',
  'EYES',
  '18',
  '18 EYES',
  'CLASS',
  '9',
  '9 CLASS',
  'RSTR',
  'RESTR',
  '12',
  'END',
  'ENDORSEMENTS',
  'DD',
  '5 DD',
  'WGT',
  'HAIR',
  'DONOR',
  'VETERAN',
];

/** The address as the lines around the first "CITY, ST ZIP" line (street above it), when no label leads to it. */
function addressLines(l: Layout): string[] {
  for (let r = 0; r < l.rows.length; r++) {
    for (const p of l.rows[r]!) {
      const text = p.text.replace(/^8\s+/, '');
      if (!parseCityLine(text)) continue;
      // the street: the row above from the city line's column on (OCR may split it at a wide gap: "18481 | COLFAX AVE")
      const row = r > 0 ? l.rows[r - 1]! : [];
      const start = row.findIndex((q) => Math.abs(q.x0 - p.x0) < 4 * l.h);
      const parts = start < 0 ? [] : row.slice(start).filter((q, i, a) => i === 0 || q.x0 - a[i - 1]!.x1 < 8 * l.h);
      const street = collapse(
        parts
          .map((q) => q.text)
          .join(' ')
          .replace(/^8\s+/, ''),
      );
      return street && isStreetLine(street) ? [street, text] : [text];
    }
  }
  return [];
}

/**
 * A line's value without its label when the label is printed smaller than
 * the value (as on ID cards) or is an AAMVA field number: "LN DOE" -> "DOE",
 * "1 DOE" -> "DOE"; null when what is left is not a name.
 */
function withoutSmallLabel(p: Phrase): string | null {
  let ws = p.words;
  while (ws.length > 1 && /^\d{1,2}[a-dA-D]?$/.test(ws[0]!.text)) ws = ws.slice(1);
  if (ws.length > 1) {
    const rest = Math.max(...ws.slice(1).map((w) => w.y1 - w.y0));
    if (ws[0]!.y1 - ws[0]!.y0 < 0.8 * rest || /^[a-z]/.test(ws[0]!.text)) ws = ws.slice(1);
  }
  return nameText(ws.map((w) => w.text).join(' '));
}

/** Words of a card's headings, never of a name. */
const CARD_WORDS =
  /\b(DRIVER'?S?|LICENSE|LICENCE|IDENTIFICATION|IDENTITY|CARD|PERMIT|INSTRUCTION|COMMERCIAL|USA|STATE OF|DEPARTMENT|REAL ID)\b/;
const STATE_NAME_SET = new Set(Object.keys(STATES));

/** The name lines right above the street line, top first (at most two, in the street's column). */
function nameRowsAbove(l: Layout, street: string): string[] {
  // the street's row: a phrase that is the street, or that begins it (the rest of the street in further phrases)
  const begins = (p: Phrase) => {
    const t = collapse(p.text.replace(/^8\s+/, '').toUpperCase());
    return t === street || (t.length >= 3 && street.startsWith(`${t} `));
  };
  const r = l.rows.findIndex((row) => row.some(begins));
  if (r < 0) return [];
  const x = l.rows[r]!.find(begins)!.x0;
  const out: string[] = [];
  for (let i = r - 1; i >= 0 && i >= r - 2; i--) {
    const p = l.rows[i]!.find((q) => Math.abs(q.x0 - x) < 5 * l.h);
    const name = p ? withoutSmallLabel(p) : null;
    // a row with a date or a digit is a field line (EXP, DOB, DL number), not a name; nor is the card's heading
    if (!name || /\d/.test(l.rows[i]!.map((q) => q.text.replace(/^\d{1,2}[a-dA-D]?\s+/, '')).join(' '))) break;
    if (CARD_WORDS.test(name) || STATE_NAME_SET.has(name.replace(/,/g, '').trim())) break;
    out.unshift(name);
    // "LAST, FIRST MIDDLE" is a whole name on one line
    if (name.includes(',')) break;
  }
  return out;
}

/**
 * A license number whose label was not read: a phrase in the card's upper
 * part that is, once a small or short leading label is dropped ("Dt", "OL"
 * for "DL"), one to two letters and 5 to 14 digits, or 7 to 15 digits.
 */
function unlabelledNumber(l: Layout): string | null {
  for (const p of l.phrases) {
    if (p.y0 > l.height * 0.6) continue;
    let ws = p.words;
    const rest = Math.max(...ws.map((w) => w.y1 - w.y0));
    if (ws.length > 1 && (ws[0]!.y1 - ws[0]!.y0 < 0.8 * rest || (ws[0]!.text.length <= 3 && !/\d/.test(ws[0]!.text))))
      ws = ws.slice(1);
    if (ws.length > 2) continue;
    // OCR reads a leading S as $ and a stray mark before the number as punctuation ("$7873475", "_W6270626")
    const t = ws
      .map((w) => w.text)
      .join('')
      .toUpperCase()
      .replace(/^[^A-Z0-9$]+/, '')
      .replace(/^\$(?=\d)/, 'S');
    if (/^([A-Z]{1,2}\d{5,14}|\d{7,15})$/.test(t)) return t;
  }
  return null;
}

export function licenseFields(pages: readonly Layout[]): Fields {
  const r = runSpecs(pages, SPECS, BLOCKS, STOPPERS);
  const v = r.values;
  const f: Fields = {};
  const l = pages[0]!;
  const fromLabel = r.blocks.address?.length
    ? parseParty(['X X', ...r.blocks.address.map((s) => s.replace(/^8\s+/, ''))])
    : null;
  const addr = fromLabel?.city ? fromLabel : parseParty(['X X', ...addressLines(l)]);
  // names: LN/FN (or 1/2) when labelled; else the one or two lines right above the street (family name first)
  let last = v.name_last ?? '';
  let given = v.name_given ?? '';
  if ((!last || !given) && addr?.street) {
    const rows = nameRowsAbove(l, addr.street);
    if (rows.length === 2) {
      last ||= rows[0]!;
      given ||= rows[1]!;
    } else if (rows.length === 1) {
      const n = parseName(rows[0]!);
      if (n) {
        last ||= [n.last, n.suffix].filter(Boolean).join(' ');
        given ||= [n.first, n.middle].filter(Boolean).join(' ');
      }
    }
  }
  const lt = last.replace(/,/g, ' ').split(' ').filter(Boolean).map(suffixToken);
  f.name_suffix = lt.length > 1 && SUFFIXES.has(lt[lt.length - 1]!) ? lt.pop()! : '';
  f.name_last = lt.join(' ');
  const gt = given.replace(/,/g, ' ').split(' ').filter(Boolean);
  f.name_first = gt.shift() ?? '';
  f.name_middle = gt.join(' ');
  f.license_number = v.license_number ?? unlabelledNumber(l) ?? '';
  f.license_state = headerState(l) ?? '';
  // dates by label; else by order (birth date the earliest, expiry the latest)
  const all = [...new Set(pages.flatMap((p) => findDates(p.phrases.map((x) => x.text).join(' '))))].sort();
  f.dob = v.dob ?? all[0] ?? '';
  f.expiration = v.expiration ?? (all.length > 1 ? all[all.length - 1]! : '');
  f.issued = v.issued ?? '';
  f.street = addr?.street ?? '';
  f.city = addr?.city ?? '';
  f.addr_state = addr?.state ?? '';
  f.zip = addr?.zip ?? '';
  // unlabelled, or its small label glued to it by OCR ("sexM")
  const glued = l.phrases
    .flatMap((p) => p.words)
    .map((w) => /^S[EIU]X[:.]?([MF])$/i.exec(w.text)?.[1])
    .find(Boolean);
  f.sex = v.sex ?? l.phrases.find((p) => /^[MF]$/.test(p.text.trim()))?.text.trim() ?? glued?.toUpperCase() ?? '';
  return f;
}

export function barcodeFields(b: AamvaRecord): Fields {
  return {
    name_first: b.name_first,
    name_middle: b.name_middle,
    name_last: b.name_last,
    name_suffix: b.name_suffix,
    license_number: b.license_number,
    license_state: b.jurisdiction,
    dob: b.dob,
    expiration: b.expiration,
    issued: b.issued,
    street: b.street,
    city: b.city,
    addr_state: b.state,
    zip: b.zip,
    sex: b.sex,
    height: b.height,
    weight_lb: b.weight_lb,
    barcode: 'AAMVA',
  };
}

/** The license holder as a borrower (Person with `dlid`). */
export function licenseAccountData(f: Fields): AccountData {
  const name = [f.name_first, f.name_middle, f.name_last, f.name_suffix].filter(Boolean).join(' ');
  if (!name && !f.license_number) return {};
  const addr = addressOf({ street: f.street!, city: f.city!, state: f.addr_state!, zip: f.zip! });
  const p: Person = { type: 'PERSON' };
  if (name) p.name = name;
  if (f.name_first) p.name_first = f.name_first;
  if (f.name_middle) p.name_middle = f.name_middle;
  if (f.name_last) p.name_last = f.name_last;
  if (f.name_suffix) p.name_suffix = f.name_suffix;
  if (f.dob) p.dob = f.dob;
  if (addr) p.addr = addr;
  const dlid: NonNullable<Person['dlid']> = {};
  if (f.license_number) dlid.number = f.license_number;
  if (f.license_state) dlid.state = f.license_state;
  if (f.sex) dlid.sex = f.sex;
  if (f.expiration) dlid.expiration_date = f.expiration;
  if (f.name_first) dlid.first_name = f.name_first;
  if (f.name_middle) dlid.middle_name = f.name_middle;
  if (f.name_last) dlid.last_name = f.name_last;
  if (f.name_suffix) dlid.suffix = f.name_suffix;
  if (addr) dlid.addr = addr;
  if (Object.keys(dlid).length) p.dlid = dlid;
  return { loan: { borrower: [p] } };
}
