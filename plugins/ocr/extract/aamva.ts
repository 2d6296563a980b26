/**
 * The AAMVA DL/ID card design standard barcode (PDF417 on the back of US
 * and Canadian licenses), read the way mature parsers read it: by element
 * IDs across the whole data, not by trusting the header. Issuers deliver
 * barcodes whose subfile designator (`DL`/`ID`) is missing, on a line of its
 * own or of the other type, whose directory offsets and lengths do not match
 * the data (a field after a miscounted length would be lost), with the
 * compliance indicator's separators as RS, FS or GS, CRLF, or dropped by the
 * scanner, `ANSI` with or without its space, the older `AAMVA` file type,
 * elements separated by LF, CR or CRLF. The header gives the issuer (IIN)
 * and the version (1 to 10); the directory is skipped whatever it says;
 * every line that starts with an element ID is an element, and jurisdiction
 * subfiles' elements (Z?) are kept with the rest.
 */
import { date8, heightInches, holderName, postalCode, sexOf, value, weightPounds } from './aamva-values.js';

/** Issuer identification numbers of the US jurisdictions (AAMVA IIN table). */
const IIN: Record<string, string> = {
  '636033': 'AL',
  '636059': 'AK',
  '636026': 'AZ',
  '636021': 'AR',
  '636014': 'CA',
  '636020': 'CO',
  '636006': 'CT',
  '636011': 'DE',
  '636043': 'DC',
  '636010': 'FL',
  '636055': 'GA',
  '636047': 'HI',
  '636050': 'ID',
  '636035': 'IL',
  '636037': 'IN',
  '636018': 'IA',
  '636022': 'KS',
  '636046': 'KY',
  '636007': 'LA',
  '636041': 'ME',
  '636003': 'MD',
  '636002': 'MA',
  '636032': 'MI',
  '636038': 'MN',
  '636051': 'MS',
  '636030': 'MO',
  '636008': 'MT',
  '636054': 'NE',
  '636049': 'NV',
  '636039': 'NH',
  '636036': 'NJ',
  '636009': 'NM',
  '636001': 'NY',
  '636004': 'NC',
  '636034': 'ND',
  '636023': 'OH',
  '636058': 'OK',
  '636029': 'OR',
  '636025': 'PA',
  '636052': 'RI',
  '636005': 'SC',
  '636042': 'SD',
  '636053': 'TN',
  '636015': 'TX',
  '636040': 'UT',
  '636024': 'VT',
  '636000': 'VA',
  '636045': 'WA',
  '636061': 'WV',
  '636031': 'WI',
  '636060': 'WY',
};
/** Canadian issuers' IINs and province codes: their dates are CCYYMMDD in every version. */
const CANADIAN_IIN = new Set([
  '636012',
  '636013',
  '636016',
  '636017',
  '636028',
  '636044',
  '636048',
  '604426',
  '604427',
  '604428',
  '604429',
  '604430',
  '604431',
  '604432',
  '604433',
]);
const PROVINCES = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NF', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'PQ', 'SK', 'YT']);

export interface AamvaRecord {
  version: number;
  iin: string;
  /** Issuing jurisdiction (from the IIN; the address state or province when the IIN is not a US one). */
  jurisdiction: string;
  license_number: string;
  name_first: string;
  name_middle: string;
  name_last: string;
  name_suffix: string;
  dob: string;
  expiration: string;
  issued: string;
  sex: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  /** Height as feet-inches ("5-09") and weight in pounds, '' when absent. */
  height: string;
  weight_lb: string;
  /** The jurisdiction-specific subfiles' elements (Z?), as read (reported with the record). */
  jurisdiction_elements: Record<string, string>;
  /** Every element by its code, as read: the DL/ID subfile's and the jurisdiction subfiles' (never reported: it holds every personal detail). */
  elements: Record<string, string>;
}

/**
 * The header: file type (`ANSI`, `ANSI `, `AAMVA`), IIN (6 digits, starting
 * with 6), AAMVA version. The compliance indicator and its separators
 * before it are not required (scanners drop or rewrite them).
 */
const HEADER = /(?:ANSI ?|AAMVA ?)(6\d{5})(\d{2})/;
/** Subfile directory entries: type, offset, length. */
const DIRECTORY = /^(?:(?:DL|ID|Z[A-Z0-9])\d{8})+/;
const SEPARATORS = /[\n\r\x1c\x1d\x1e]+/;
/** An element line: its three-letter ID (D standard, Z jurisdiction, P version-1 permit) and value. */
const ELEMENT = /^([DZP][A-Z]{2})(.*)$/s;
/** Element IDs that start a DL/ID subfile's data in every version (searched for when the first line holds something else first). */
const FIRST_ELEMENTS = /(?:DL|ID)?(DAQ|DCA|DAA|DAB|DCS|DBA|DBB|DAC|DCT|DAG|DAR)/;

/** The version's own element set when the header did not say (no header at all). */
function guessVersion(e: Record<string, string>): number {
  if ('DAA' in e || 'DAB' in e) return 1;
  if ('DCT' in e && !('DAC' in e)) return 3;
  return 'DDA' in e ? 8 : 4;
}

/**
 * The data after the header: the directory is skipped (with the version-2+
 * jurisdiction version and entry count before it, version 1's entry count,
 * or neither).
 */
function afterHeader(raw: string, at: number): string {
  for (const skip of [4, 2, 0]) {
    const dir = DIRECTORY.exec(raw.slice(at + skip));
    if (dir) return raw.slice(at + skip + dir[0].length);
  }
  // no directory: the counts, then the data
  const digits = /^\d{0,4}/.exec(raw.slice(at))![0];
  return raw.slice(at + digits.length);
}

/** Elements by ID from the lines of the data; the first occurrence of an ID wins. */
function readElements(data: string): Record<string, string> {
  const out: Record<string, string> = {};
  data.split(SEPARATORS).forEach((line, i) => {
    let s = line.replace(/^\s+/, '');
    // the subfile designator before the first element: "DLDAQ...", "IDDCA...", "ZVZVA..."
    s = s.replace(/^(?:DL|ID)(?=[DZP][A-Z]{2})/, '').replace(/^Z([A-Z0-9])(?=Z\1)/, '');
    if (i === 0 && !/^(?:D[A-Z]{2}|Z[A-Z]{2})/.test(s)) {
      // the header's line: whatever lies between the directory and the first element is not data
      const m = FIRST_ELEMENTS.exec(s);
      if (!m) return;
      s = s.slice(m.index + m[0].length - 3);
    }
    const m = ELEMENT.exec(s);
    if (m && !(m[1]! in out)) out[m[1]!] = m[2]!;
  });
  return out;
}

/** Parses an AAMVA payload; null when the text is not one (no header and no customer number, name and birth date). */
export function parseAamva(raw: string): AamvaRecord | null {
  const head = HEADER.exec(raw);
  const e = readElements(head ? afterHeader(raw, head.index + head[0].length) : raw);
  if (!value(e.DAQ) && !(value(e.DBB) && (value(e.DCS) || value(e.DAB) || value(e.DAA)))) return null;
  if (!head && Object.keys(e).filter((k) => k.startsWith('D')).length < 5) return null;
  const iin = head?.[1] ?? '';
  const version = head ? Number(head[2]) : guessVersion(e);
  const state = value(e.DAJ) || value(e.DAO);
  const country =
    value(e.DCG).toUpperCase() ||
    (CANADIAN_IIN.has(iin) || PROVINCES.has(state.toUpperCase()) ? 'CAN' : head || state ? 'USA' : '');
  // CCYYMMDD in version 1 and in Canada; MMDDCCYY in the US from version 2
  const ymdFirst = version <= 1 || country === 'CAN';
  const n = holderName(e);
  const inches = heightInches(e.DAU, e.DAV);
  const lb = weightPounds(e.DAW, e.DAX);
  return {
    version,
    iin,
    jurisdiction: IIN[iin] ?? state,
    license_number: value(e.DAQ).replace(/\s+/g, ''),
    name_first: n.first,
    name_middle: n.middle,
    name_last: n.last,
    name_suffix: n.suffix,
    dob: date8(e.DBB, ymdFirst),
    expiration: date8(e.DBA, ymdFirst),
    issued: date8(e.DBD, ymdFirst),
    sex: sexOf(e.DBC),
    street: [value(e.DAG) || value(e.DAL), value(e.DAH) || value(e.DAM)].filter(Boolean).join(' '),
    city: value(e.DAI) || value(e.DAN),
    state,
    zip: postalCode(e.DAK ?? e.DAP),
    country,
    height: inches ? `${Math.floor(inches / 12)}-${String(inches % 12).padStart(2, '0')}` : '',
    weight_lb: lb ? String(lb) : '',
    jurisdiction_elements: Object.fromEntries(
      Object.entries(e)
        .filter(([k]) => k.startsWith('Z'))
        .map(([k, v]) => [k, v.trim()]),
    ),
    elements: e,
  };
}
