/**
 * The AAMVA DL/ID card design standard barcode (PDF417 on the back of US
 * and Canadian licenses): header, subfile offsets, and the data elements
 * (DAQ number, DCS/DAC/DAD names, DBB birth date, DBA expiry, DBC sex, DAG
 * DAI DAJ DAK address). Versions 1 to 10: version 1's DAA full name and
 * DAB/DAE, later DCT given names; US dates MMDDCCYY, Canadian CCYYMMDD.
 */

/** Issuer identification numbers of the jurisdictions (AAMVA IIN table). */
const IIN: Record<string, string> = {
  '636033': 'AL', '636059': 'AK', '636026': 'AZ', '636021': 'AR', '636014': 'CA', '636020': 'CO', '636006': 'CT', '636011': 'DE', '636043': 'DC',
  '636010': 'FL', '636055': 'GA', '636047': 'HI', '636050': 'ID', '636035': 'IL', '636037': 'IN', '636018': 'IA', '636022': 'KS', '636046': 'KY',
  '636007': 'LA', '636041': 'ME', '636003': 'MD', '636002': 'MA', '636032': 'MI', '636038': 'MN', '636051': 'MS', '636030': 'MO', '636008': 'MT',
  '636054': 'NE', '636049': 'NV', '636039': 'NH', '636036': 'NJ', '636009': 'NM', '636001': 'NY', '636004': 'NC', '636034': 'ND', '636023': 'OH',
  '636058': 'OK', '636029': 'OR', '636025': 'PA', '636052': 'RI', '636005': 'SC', '636042': 'SD', '636053': 'TN', '636015': 'TX', '636040': 'UT',
  '636024': 'VT', '636000': 'VA', '636045': 'WA', '636061': 'WV', '636031': 'WI', '636060': 'WY',
};

export interface AamvaRecord {
  version: number;
  iin: string;
  /** Issuing jurisdiction (from the IIN; the address state when the IIN is not a US one we know). */
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
  /** Every element by its code, as read. */
  elements: Record<string, string>;
}

function date8(v: string | undefined, canadian: boolean): string {
  const d = (v ?? '').replace(/\D/g, '');
  if (d.length !== 8) return '';
  const asYmd = () => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
  const asMdy = () => `${d.slice(4, 8)}-${d.slice(0, 2)}-${d.slice(2, 4)}`;
  const ok = (s: string) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && Number(s.slice(5, 7)) <= 12;
  if (canadian && ok(asYmd())) return asYmd();
  if (ok(asMdy())) return asMdy();
  return ok(asYmd()) ? asYmd() : '';
}

const none = (v: string | undefined) => (!v || /^(NONE|UNAVL|UNAVAILABLE)$/i.test(v.trim()) ? '' : v.trim());

/** Parses an AAMVA payload; null when the text is not one. */
export function parseAamva(raw: string): AamvaRecord | null {
  const head = /ANSI ?(\d{6})(\d{2})(\d{2})?(\d{2})?/.exec(raw) ?? /AAMVA(\d{6})(\d{2})/.exec(raw);
  if (!head) return null;
  const iin = head[1]!;
  const version = Number(head[2]);
  // the subfile: by its offset when that points at "DL"/"ID", else the first "DL"/"ID" followed by an element code
  let body = '';
  const dir = /(DL|ID)(\d{4})(\d{4})/.exec(raw.slice(head.index, head.index + 60));
  if (dir) {
    const off = Number(dir[2]);
    const sub = raw.slice(off, off + Number(dir[3]));
    if (/^(DL|ID)/.test(sub)) body = sub.slice(2);
  }
  if (!body) {
    const start = /(?:DL|ID)(?=D[A-Z]{2})/.exec(raw.slice(head.index + head[0].length + 4));
    if (!start) return null;
    body = raw.slice(head.index + head[0].length + 4 + start.index + 2);
  }
  const elements: Record<string, string> = {};
  for (const piece of body.split(/[\n\r\x1e\x1d]+/)) {
    const m = /^([DZ][A-Z]{2})(.*)$/.exec(piece.trim());
    if (m && !(m[1]! in elements)) elements[m[1]!] = m[2]!.trim();
  }
  if (!elements.DAQ) return null;
  const country = elements.DCG ?? '';
  const canadian = country === 'CAN' || /^6040/.test(iin) || ['636012', '636013', '636016', '636017', '636028', '636044', '636048'].includes(iin);
  let last = none(elements.DCS ?? elements.DAB);
  let first = none(elements.DAC ?? elements.DCT);
  let middle = none(elements.DAD);
  if (!elements.DAC && elements.DCT && /[, ]/.test(elements.DCT)) {
    const [f, ...m] = elements.DCT.split(/[, ]+/);
    first = f ?? '';
    middle ||= none(m.join(' '));
  }
  if (!last && elements.DAA) {
    const parts = elements.DAA.split(/[,$]/).map((s) => s.trim());
    [last, first = '', middle = ''] = parts as [string, string?, string?];
  }
  const zip = (elements.DAK ?? '').replace(/[^0-9A-Z]/g, '');
  const sex = elements.DBC === '1' || elements.DBC === 'M' ? 'M' : elements.DBC === '2' || elements.DBC === 'F' ? 'F' : '';
  return {
    version, iin, jurisdiction: IIN[iin] ?? elements.DAJ ?? '', license_number: elements.DAQ,
    name_first: first, name_middle: middle, name_last: last, name_suffix: none(elements.DCU ?? elements.DAE),
    dob: date8(elements.DBB, canadian), expiration: date8(elements.DBA, canadian), issued: date8(elements.DBD, canadian), sex,
    street: [elements.DAG, elements.DAH].map(none).filter(Boolean).join(' '), city: none(elements.DAI), state: none(elements.DAJ),
    zip: /^\d{5}/.test(zip) ? zip.slice(0, 5) : zip, country, elements,
  };
}
