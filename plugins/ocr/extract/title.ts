/**
 * Certificate of title: vehicle (VIN, year, make, model, body), title
 * (number, issuing state, issue date, odometer and its brand, title brands),
 * owners (names, conjunction, address) and the first and second liens
 * (lienholder, address, lien date).
 */
import type { AccountData, Lien, Person } from '../../../core/plugin-api.js';
import {
  blockAbove,
  blockUnder,
  candidateScore,
  candidates,
  findLabels,
  valueSide,
  type FieldSpec,
  type LabelHit,
} from '../layout/fields.js';
import type { Layout, Phrase } from '../layout/layout.js';
import { collapse, parseDate, parseYear } from '../layout/text.js';
import {
  addressOf,
  headerState,
  makeText,
  stateCode,
  identifier,
  odometer,
  odometerBrand,
  parseParty,
  shortText,
  stateValue,
  titleBrands,
  vinText,
  yearMakeText,
  type Fields,
  type Party,
} from './common.js';
import { runSpecs, type SpecResult } from './run.js';
import type { VinRead } from './vin.js';

export const VIN_LABELS = [
  'VEHICLE IDENTIFICATION NUMBER',
  'VEHICLE IDENTIFICATION NO',
  'VEHICLE ID NUMBER',
  'VEHICLE ID NO',
  'VEHICLE ID',
  'VIN',
  'VIN NO',
  'VIN NUMBER',
  'IDENTIFICATION NUMBER',
  'SERIAL NUMBER',
  'HULL ID',
];
export const YEAR_LABELS = ['YEAR MODEL', 'MODEL YEAR', 'YEAR', 'YR', 'YR MODEL', 'VEHICLE YEAR', 'YR MDL'];
export const MAKE_LABELS = ['MAKE', 'MAKE OF VEHICLE', 'VEHICLE MAKE', 'MAKE OF CAR', 'MFR', 'MANUFACTURER'];
/** One value holding the year and the make (and the model): "YR/MAKE  2021 NISSAN". */
export const YEAR_MAKE_LABELS = [
  'YR MAKE',
  'YEAR MAKE',
  'YR MAKE MODEL',
  'YEAR MAKE MODEL',
  'YEAR MAKE AND MODEL',
  'YR MK',
  'YEAR MFR',
];
/** Labels of the first lien's date only ('LIEN DATE' and the like may be either lien's: see lienDates). */
const FIRST_LIEN_DATE_LABELS = [
  '1ST LIEN DATE',
  'FIRST LIEN DATE',
  'DATE OF 1ST LIEN',
  'DATE OF FIRST LIEN',
  'LIEN 1 DATE',
];
const LIEN_2_DATE_LABELS = [
  '2ND LIEN DATE',
  'SECOND LIEN DATE',
  'DATE OF 2ND LIEN',
  'DATE OF SECOND LIEN',
  '2ND LIEN NOTATION DATE',
  'SECOND LIEN NOTATION DATE',
  '2ND LIEN RECORDED',
  'SECOND LIEN RECORDED',
  'LIEN 2 DATE',
  'LIEN #2 DATE',
];
/**
 * The second lien's labels. Every one is longer than the first lien's label
 * it holds ("SECOND LIEN" / "LIEN"), and a label must start its phrase, so
 * the first lien is never read from a second lien's label; and as labels
 * they end the first lien's block. "LIEN HOLDER" also matches the word run
 * together ("2ND LIENHOLDER"), so each label is spelled once.
 */
const LIEN_2_LABELS = [
  '2ND LIEN HOLDER',
  'SECOND LIEN HOLDER',
  '2ND LIEN',
  'SECOND LIEN',
  '2ND SECURED PARTY',
  'SECOND SECURED PARTY',
  '2ND LEGAL OWNER',
  'SECOND LEGAL OWNER',
  '2ND LIEN HOLDER NAME AND ADDRESS',
  'SECOND LIEN HOLDER NAME AND ADDRESS',
  '2ND LIEN HOLDER INFORMATION',
  'SECOND LIEN HOLDER INFORMATION',
  'LIEN HOLDER 2',
  'LIEN HOLDER #2',
  'ADDITIONAL LIEN HOLDER',
];
const SPECS: FieldSpec[] = [
  { key: 'vin', labels: VIN_LABELS, parse: vinText, typed: true },
  { key: 'year', labels: YEAR_LABELS, parse: parseYear, typed: true },
  { key: 'make', labels: MAKE_LABELS, parse: makeText },
  { key: 'model', labels: ['MODEL', 'VEHICLE MODEL', 'SERIES', 'MODEL NAME'], parse: shortText(3) },
  {
    key: 'body',
    labels: ['BODY TYPE', 'BODY STYLE', 'BODY', 'BODY TYPE MODEL', 'STYLE', 'BODY CODE'],
    parse: shortText(3),
  },
  {
    key: 'title_number',
    labels: [
      'TITLE NUMBER',
      'TITLE NO',
      'TITLE #',
      'TITLE DOCUMENT NUMBER',
      'DOCUMENT NUMBER',
      'CERTIFICATE NUMBER',
      'CERTIFICATE NO',
      'TITLE NUM',
      'TITLE ID',
      'DOCUMENT NO',
    ],
    parse: identifier,
    typed: true,
  },
  { key: 'year_make', labels: YEAR_MAKE_LABELS, parse: yearMakeText, typed: true },
  {
    key: 'issue_date',
    labels: [
      'ISSUE DATE',
      'DATE ISSUED',
      'DATE OF ISSUE',
      'DATE TITLE ISSUED',
      'TITLE ISSUE DATE',
      'ISSUED',
      'TITLE DATE',
      'ISSUED ON',
      'DATE OF TITLE',
      'DATE OF ISSUANCE',
      'ISSUANCE DATE',
      'ISSUED DATE',
      'TITLE ISSUED',
    ],
    parse: parseDate,
    typed: true,
  },
  {
    key: 'odometer_reading',
    labels: ['ODOMETER READING', 'ODOMETER', 'MILEAGE', 'ODOMETER MILES', 'ODOMETER DISCLOSURE'],
    parse: odometer,
    typed: true,
  },
  {
    key: 'odometer_brand',
    labels: [
      'ODOMETER STATUS',
      'ODOMETER BRAND',
      'MILEAGE STATUS',
      'ODOMETER CODE',
      'MILEAGE BRAND',
      'ODOMETER DESCRIPTION',
      'ODO STATUS',
      'ODO BRAND',
      'ODO CODE',
      'ODOMETER INDICATOR',
      'MILEAGE INDICATOR',
      'ODOMETER TYPE',
      'MILEAGE TYPE',
    ],
    parse: odometerBrand,
  },
  {
    key: 'brands',
    labels: ['TITLE BRANDS', 'TITLE BRAND', 'BRANDS', 'BRAND', 'BRAND S', 'BRANDING', 'TITLE BRANDING'],
    parse: titleBrands,
  },
  {
    key: 'lien_date',
    labels: [
      'LIEN DATE',
      'DATE OF LIEN',
      ...FIRST_LIEN_DATE_LABELS,
      'LIEN NOTATION DATE',
      'LIEN RECORDED',
      'DATE LIEN RECORDED',
    ],
    parse: parseDate,
    typed: true,
  },
  { key: 'lien_2_date', labels: LIEN_2_DATE_LABELS, parse: parseDate, typed: true },
  {
    key: 'issuing_state',
    labels: ['ISSUING STATE', 'STATE OF ISSUE', 'TITLE STATE', 'ISSUING JURISDICTION'],
    parse: stateValue,
  },
];
const BLOCKS = [
  {
    key: 'owners',
    labels: [
      'REGISTERED OWNER',
      'REGISTERED OWNERS',
      'REGISTERED OWNER S',
      'OWNER',
      'OWNERS',
      'OWNER S',
      'OWNER NAME AND ADDRESS',
      'NAME S AND ADDRESS OF OWNER S',
      'NAMES AND ADDRESS OF OWNERS',
      'NAME AND ADDRESS OF OWNER',
      'OWNER NAME',
      'OWNERS NAME',
      'OWNER INFORMATION',
      'TITLED OWNER',
    ],
  },
  {
    key: 'lienholder',
    labels: [
      'LIENHOLDER',
      '1ST LIENHOLDER',
      'FIRST LIENHOLDER',
      'LIEN HOLDER',
      '1ST LIEN HOLDER',
      'LEGAL OWNER',
      'LEGAL OWNER LIENHOLDER',
      'SECURED PARTY',
      'FIRST SECURED PARTY',
      'FIRST LIEN',
      '1ST LIEN',
      'LIENHOLDER NAME AND ADDRESS',
      'LIENHOLDER INFORMATION',
      'LIEN HOLDER 1',
      'LIEN HOLDER #1',
    ],
  },
  { key: 'lienholder_2', labels: LIEN_2_LABELS },
];
const BLOCK_SPECS: FieldSpec[] = BLOCKS.map((b) => ({ key: b.key, labels: b.labels, parse: () => null }));
/** Labels of things not extracted: they end blocks (a third lien ends the second's). */
const TITLE_STOPPERS = [
  '3RD LIEN HOLDER',
  'THIRD LIEN HOLDER',
  '3RD LIEN',
  'THIRD LIEN',
  'REMARKS',
  'RELEASE OF LIEN',
  'LIEN RELEASE',
  'RELEASE OF INTEREST',
  'LIEN SATISFIED',
  'SIGNATURE',
  'FEES PAID',
  'MAILING ADDRESS',
  'PREVIOUS TITLE',
  'COLOR',
  'PRIMARY COLOR',
  'WEIGHT',
  'PLATE',
  'TYPE',
  'TITLE TYPE',
];

interface TitleResult {
  fields: Fields;
  account_data: AccountData;
  vin: VinRead | null;
  vinRegions: SpecResult['vinRegions'];
}

export const person = (n: Party['names'][number], p: Party | null): Person => {
  const out: Person = { type: 'PERSON', name: n.name, name_first: n.first, name_last: n.last };
  if (n.middle) out.name_middle = n.middle;
  if (n.suffix) out.name_suffix = n.suffix;
  const addr = addressOf(p);
  if (addr) out.addr = addr;
  return out;
};

export function partyFields(prefix: string, p: Party | null, f: Fields): void {
  f[`${prefix}_1_name`] = p?.names[0]?.name ?? '';
  f[`${prefix}_2_name`] = p?.names[1]?.name ?? '';
  f[`${prefix}_street`] = p?.street ?? '';
  f[`${prefix}_city`] = p?.city ?? '';
  f[`${prefix}_state`] = p?.state ?? '';
  f[`${prefix}_zip`] = p?.zip ?? '';
}

export function extractTitle(pages: readonly Layout[]): TitleResult {
  const r = runSpecs(pages, SPECS, BLOCKS, TITLE_STOPPERS);
  const v = r.values;
  const f: Fields = {};
  f.vin = r.vin?.vin ?? '';
  for (const k of ['year', 'make', 'model', 'body', 'title_number', 'issue_date', 'odometer_reading'] as const)
    f[k] = v[k] ?? '';
  // a combined "YR/MAKE" value fills what no label of its own gave
  if (v.year_make) {
    const [year, make, model] = v.year_make.split('\t') as [string, string, string];
    f.year ||= year;
    f.make ||= make;
    f.model ||= model;
  }
  f.issuing_state = v.issuing_state ?? pages.map(headerState).find(Boolean) ?? '';
  const text = pages.map((l) => l.phrases.map((p) => p.text).join(' ')).join(' ');
  f.odometer_brand = v.odometer_brand ?? odometerBrand(text.replace(/ODOMETER (STATUS|BRAND)/gi, '')) ?? '';
  f.brands = v.brands ?? '';
  const ownerLines = blockLines(pages, r.blocks, 'owners');
  const owners = ownerLines ? parseParty(ownerLines) : null;
  partyFields('owner', owners, f);
  f.conjunction = owners && owners.names.length > 1 ? owners.conjunction : '';
  let lienLines = blockLines(pages, r.blocks, 'lienholder');
  let lien2Lines = blockLines(pages, r.blocks, 'lienholder_2');
  // no second lien's label: two lien boxes may both be labelled plainly ("LIENHOLDER", "LIENHOLDER")
  const pair = lien2Lines ? null : plainLienPair(pages);
  if (pair) [lienLines, lien2Lines] = [pair.blocks[0].lines, pair.blocks[1].lines];
  const lien = lienLines ? parseParty(lienLines) : null;
  const lien2 = lien2Lines ? parseParty(lien2Lines) : null;
  // without a second lien every date label both liens use is the first's (runSpecs's values)
  const dates = (lien2 && lienDates(pages, pair)) || { 1: v.lien_date, 2: v.lien_2_date };
  lienFields('lienholder', 'lien_date', lien, dates[1], f);
  lienFields('lienholder_2', 'lien_2_date', lien2, dates[2], f);

  const title: NonNullable<NonNullable<AccountData['vehicle']>['title']> = {};
  if (f.title_number) title.number = f.title_number;
  if (f.issuing_state) title.issuing_state = stateCode(f.issuing_state);
  if (f.issue_date) title.issuance_date = f.issue_date;
  if (f.odometer_reading) {
    title.odometer_reading = f.odometer_reading;
    title.odometer_reading_unit = 'MI';
  }
  if (f.odometer_brand) title.odometer_code_translation = f.odometer_brand as 'ACTUAL';
  if (v.brands !== undefined) {
    const list = f.brands ? f.brands.split(',') : [];
    if (list.length) title.brand = list[0] as 'SALVAGE';
    title.brands = list.map((b) => ({ brand: b }));
  }
  if (owners?.names.length) {
    title.owners = owners.names.map((n) => person(n, owners));
    title.number_of_owners = owners.names.length;
    title.owner_names_one_line = owners.names
      .map((n) => n.name)
      .join(owners.conjunction ? ` ${owners.conjunction} ` : ' ');
    if (owners.names.length > 1 && owners.conjunction) {
      title.conjunction = owners.conjunction;
      title.is_and = owners.conjunction === 'AND';
      title.is_or = owners.conjunction === 'OR';
    }
  }
  // liens are known when the first lien's block is on the title (NONE: no liens) or a lien was read
  if (lienLines || lien2) {
    const liens: Lien[] = [];
    for (const [p, name, date] of [
      [lien, f.lienholder_name, f.lien_date],
      [lien2, f.lienholder_2_name, f.lien_2_date],
    ] as const) {
      if (!p) continue;
      const addr = addressOf(p);
      liens.push({
        ...(date ? { lien_date: date } : {}),
        lienholder: { type: 'LIENHOLDER', name, ...(addr ? { addr } : {}) },
      });
    }
    title.has_liens = liens.length > 0;
    title.active_liens = liens;
  }
  const vehicle: NonNullable<AccountData['vehicle']> = {};
  if (f.vin) vehicle.vin = f.vin;
  if (f.year) vehicle.year = Number(f.year);
  for (const k of ['make', 'model', 'body'] as const) if (f[k]) vehicle[k] = f[k];
  if (Object.keys(title).length) vehicle.title = title;
  return {
    fields: f,
    account_data: Object.keys(vehicle).length ? { vehicle } : {},
    vin: r.vin,
    vinRegions: r.vinRegions,
  };
}

/** A lien's flat fields: `<prefix>_name`, `_street`, `_city`, `_state`, `_zip` and its date ('' without a lien). */
function lienFields(prefix: string, dateKey: string, p: Party | null, date: string | undefined, f: Fields): void {
  f[`${prefix}_name`] = p ? collapse(p.nameLines.join(' ')) : '';
  f[`${prefix}_street`] = p?.street ?? '';
  f[`${prefix}_city`] = p?.city ?? '';
  f[`${prefix}_state`] = p?.state ?? '';
  f[`${prefix}_zip`] = p?.zip ?? '';
  f[dateKey] = p ? (date ?? '') : '';
}

const FIELD_NUMBER = /^\d{1,2}[A-D]?$/;
const startsWithLabel = (q: Phrase, hits: readonly LabelHit[]) =>
  hits.some((h) => h.phrase === q && q.words.slice(0, h.start).every((w) => FIELD_NUMBER.test(w.text)));
/** The words of a phrase before the first label in it. */
const beforeLabel = (q: Phrase, hits: readonly LabelHit[]) => {
  const cut = hits.filter((x) => x.phrase === q).sort((a, b) => a.start - b.start)[0];
  return (cut ? q.words.slice(0, cut.start) : q.words).map((w) => w.text).join(' ');
};

const hitsOf = new WeakMap<Layout, LabelHit[]>();
/** Every label of a title page (the same hits runSpecs finds), once per page. */
function titleHits(l: Layout): LabelHit[] {
  let hits = hitsOf.get(l);
  if (!hits)
    hitsOf.set(l, (hits = findLabels(l, [...SPECS, ...BLOCK_SPECS, { key: '_stop', labels: TITLE_STOPPERS }])));
  return hits;
}
const LIEN_2_DEFS = [{ key: 'lienholder_2', labels: LIEN_2_LABELS }];
const lien2Of = new WeakMap<Layout, boolean>();
/** Whether a page may hold a second lien's label (a cheap look before every label of the page is found). */
function mayHaveLien2(l: Layout): boolean {
  let v = lien2Of.get(l);
  if (v === undefined) lien2Of.set(l, (v = findLabels(l, LIEN_2_DEFS).length > 0));
  return v;
}

/**
 * A block whose label is left of its values ("LIENHOLDER    FIRST BANK" with
 * the address lines under the value): the next phrase right of the label,
 * then the lines under it aligned with it, until a wide gap, a label, or
 * anything in the label's column (the next item).
 */
function blockRight(l: Layout, hit: LabelHit, hits: readonly LabelHit[], maxLines = 8): string[] {
  const p = hit.phrase;
  const h = p.h;
  // the label ends its phrase (a value in the same phrase is the block under the label)
  if (hits.some((x) => x.phrase === p && x.start >= hit.end) || p.words.length > hit.end) return [];
  const right = l.rows[p.row]!.filter((q) => q.x0 > p.x1 - 1 && q !== p).sort((a, b) => a.x0 - b.x0);
  const first = right[0];
  if (!first || startsWithLabel(first, hits) || first.x0 - p.x1 > 0.4 * l.width) return [];
  const vx = first.x0;
  const limit = right[1] ? right[1].x0 - 0.5 * h : l.width;
  const lines = [beforeLabel(first, hits)].filter(Boolean);
  let lastY = first.y1;
  for (let r = p.row + 1; r < l.rows.length && lines.length < maxLines; r++) {
    const row = l.rows[r]!;
    const inCol = row.filter((q) => q.x0 >= vx - 2 * h && q.x0 < limit && q.x0 <= vx + 15 * h);
    const labelCol = row.filter((q) => q.x1 > hit.x0 - 2 * h && q.x0 < vx - 2 * h);
    if (!inCol.length && !labelCol.length) continue;
    const top = Math.min(...[...inCol, ...labelCol].map((q) => q.y0));
    if (top - lastY > 2.4 * h) break;
    if (labelCol.length) break;
    if (startsWithLabel(inCol[0]!, hits)) break;
    const text = beforeLabel(inCol[0]!, hits);
    if (text) lines.push(text);
    if (text !== inCol[0]!.text) break;
    lastY = Math.max(...inCol.map((q) => q.y1));
  }
  return lines;
}

/** A block's lines: under its label (runSpecs), else right of it (the first page where either has lines). */
function blockLines(pages: readonly Layout[], blocks: Record<string, string[]>, key: string): string[] | null {
  if (blocks[key]?.length) return blocks[key]!;
  for (const l of pages) {
    if (key === 'lienholder_2' && !mayHaveLien2(l)) continue;
    const hits = titleHits(l);
    for (const hit of hits.filter((x) => x.key === key)) {
      const lines = blockRight(l, hit, hits);
      if (lines.length) return lines;
    }
  }
  return null;
}

const labelText = (h: LabelHit) =>
  h.phrase.words
    .slice(h.start, h.end)
    .map((w) => w.text.toUpperCase().replace(/[^A-Z0-9#]/g, ''))
    .join(' ');

/** The lines of a block at one of its labels: under it, above it on a page that prints values above labels (when they read as well), else right of it. */
function linesAt(l: Layout, hit: LabelHit, hits: LabelHit[], side: 'below' | 'above' | null): string[] {
  const under = blockUnder(l, hit, hits);
  const above = side === 'above' ? blockAbove(l, hit, hits, new Set(BLOCKS.map((b) => b.key))) : [];
  const lines = above.length && (!under.length || partyScore(above) >= partyScore(under)) ? above : under;
  return lines.length ? lines : blockRight(l, hit, hits);
}
const partyScore = (lines: string[]) => {
  const p = parseParty(lines);
  return (p?.city ? 2 : 0) + (p?.street ? 1 : 0);
};

interface LienPair {
  page: Layout;
  blocks: [{ hit: LabelHit; lines: string[] }, { hit: LabelHit; lines: string[] }];
}

/**
 * Two lien boxes printed with the same plain label ("LIENHOLDER" over each):
 * the first in reading order (top to bottom; left to right on one row) is
 * the first lien, the next the second. Both must read as a party (a name
 * and a "CITY, ST ZIP" line; a box reading NONE is no lien), so a label
 * repeated elsewhere (a release section) does not make a second lien.
 */
function plainLienPair(pages: readonly Layout[]): LienPair | null {
  for (const l of pages) {
    const hits = titleHits(l);
    const plain = hits.filter((h) => h.key === 'lienholder');
    if (plain.length < 2) continue;
    const side = valueSide(l, hits, SPECS);
    const byLabel = new Map<string, { hit: LabelHit; lines: string[] }[]>();
    for (const hit of plain) {
      const lines = linesAt(l, hit, hits, side);
      if (!lines.length || /^\s*(NONE|N\/A)\b/i.test(lines[0]!) || partyScore(lines) < 2) continue;
      const k = labelText(hit);
      byLabel.set(k, [...(byLabel.get(k) ?? []), { hit, lines }]);
    }
    for (const found of byLabel.values()) {
      if (found.length < 2) continue;
      const u = l.h;
      found.sort((a, b) => (Math.abs(a.hit.y0 - b.hit.y0) < u ? a.hit.x0 - b.hit.x0 : a.hit.y0 - b.hit.y0));
      if (found[0]!.lines.join('\n') === found[1]!.lines.join('\n')) continue;
      return { page: l, blocks: [found[0]!, found[1]!] };
    }
  }
  return null;
}

/**
 * Which lien a date label belongs to. '2ND LIEN DATE' and the like: the
 * second; '1ST LIEN DATE': the first. A label both liens use ('LIEN DATE'):
 * the first when the page has a second lien's date label; else the lien
 * whose label is nearest before it (at or above it; nearer down the same
 * column than across), the first when none is.
 */
function lienOf(d: LabelHit, liens: readonly LabelHit[], explicit2: boolean): 1 | 2 {
  if (d.key === 'lien_2_date') return 2;
  const label = d.phrase.words
    .slice(d.start, d.end)
    .map((w) => w.text)
    .join(' ')
    .toUpperCase();
  if (explicit2 || /\b(1ST|FIRST)\b|(^|\s)#?1(\s|$)/.test(label)) return 1;
  let best: { n: 1 | 2; score: number } | null = null;
  for (const L of liens) {
    const u = L.phrase.h;
    if (L.y0 > d.y0 + 0.5 * u) continue;
    const dx = Math.abs(d.x0 - L.x0);
    const score = Math.max(0, d.y0 - L.y0) + (dx <= 3 * u ? 0 : dx);
    if (!best || score < best.score) best = { n: L.key === 'lienholder_2' ? 2 : 1, score };
  }
  return best?.n ?? 1;
}

/**
 * The lien dates of a title with a second lien's label: each date label's
 * value (scored as extractFields scores candidates) goes to its lien
 * (lienOf); the first page that has a date for a lien gives it. Null when no
 * page has a second lien's label (runSpecs's values stand). With two plainly
 * labelled lien boxes (`pair`), their page, the second box's label taken as
 * the second lien's.
 */
function lienDates(pages: readonly Layout[], pair: LienPair | null = null): { 1?: string; 2?: string } | null {
  const out: { 1?: string; 2?: string } = {};
  let seen = false;
  for (const l of pair ? [pair.page] : pages) {
    if (!pair && !mayHaveLien2(l)) continue;
    const hits = titleHits(l);
    if (!pair && !hits.some((h) => h.key === 'lienholder_2')) continue;
    seen = true;
    const side = valueSide(l, hits, SPECS);
    // two plain lien labels: the second box's label counts as the second lien's
    const liens = pair
      ? [pair.blocks[0].hit, { ...pair.blocks[1].hit, key: 'lienholder_2' }]
      : hits.filter((h) => h.key === 'lienholder' || h.key === 'lienholder_2');
    const explicit2 = hits.some((h) => h.key === 'lien_2_date');
    const best: Record<1 | 2, { v: string; score: number } | undefined> = { 1: undefined, 2: undefined };
    for (const d of hits.filter((h) => h.key === 'lien_date' || h.key === 'lien_2_date')) {
      const n = lienOf(d, liens, explicit2);
      for (const c of candidates(l, d, hits)) {
        const v = parseDate(collapse(c.text));
        if (v === null) continue;
        const score = candidateScore(c, side);
        if (!best[n] || score < best[n]!.score) best[n] = { v, score };
      }
    }
    for (const n of [1, 2] as const) if (out[n] === undefined && best[n]) out[n] = best[n]!.v;
  }
  return seen ? out : null;
}
