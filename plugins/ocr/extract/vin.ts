/**
 * VINs read by OCR: finding 17-character candidates on a page, and repairing
 * the classic confusions (I/1, O/0, Q/0, S/5, B/8, Z/2, G/6, and L/1, T/7) only when the
 * check digit (49 CFR 565.15) confirms exactly one candidate. I, O and Q
 * never occur in a VIN, so they are always read as 1, 0, 0; the other
 * swaps are tried one at a time, and one is taken only when it is the single
 * swap that makes the check digit right and gives a plausible VIN (a
 * manufacturer code the VIN decoder knows, a model year code at position 10,
 * digits at 14 to 17). (A J read as I cannot be told from a 1: both weigh 1
 * in the check digit, so such a repair is not `certain` and the VIN is read
 * again.) A glyph read twice (18 characters), or a speck
 * read as I, O or Q in an 18-character read, is dropped on the same terms.
 * Otherwise the VIN is kept as read and flagged.
 */
import { computeCheckDigit, wmiTable } from '../../../core/plugin-api-pure.js';
import type { Box } from '../layout/fields.js';
import type { Layout } from '../layout/layout.js';
import { digitish } from '../layout/text.js';

type VinStatus = 'valid' | 'repaired' | 'unverified' | 'malformed';

export interface VinRead {
  /** What the page says, spaces and dashes removed, uppercased. */
  read: string;
  /** The VIN to use: repaired when the check digit confirmed one candidate, else as read. */
  vin: string;
  status: VinStatus;
  /** Positions (1-17) changed by the repair. */
  changed?: number[];
  /** With status unverified: how many equally good candidates the check digit allowed. */
  candidates?: number;
  /** Where it was read (page, box in 300-dpi pixels). */
  page?: number;
  box?: Box;
  /** Read again from the image with tesseract limited to the VIN alphabet. */
  reread?: boolean;
  /** The repair only read O, Q as 0 (and no I: an I may be a 1 or a J, which the check digit cannot tell apart). */
  certain?: boolean;
}

const FORCED: Record<string, string> = { I: '1', O: '0', Q: '0' };
/** Confusions tried one and two at a time: the list, plus L/1 and T/7 (monospaced fonts print them alike). */
const SWAPS: Record<string, string> = {
  S: '5',
  '5': 'S',
  B: '8',
  '8': 'B',
  Z: '2',
  '2': 'Z',
  G: '6',
  '6': 'G',
  L: '1',
  T: '7',
  '7': 'T',
};
const VIN_ALPHABET = /^[A-HJ-NPR-Z0-9]{17}$/;
/** The manufacturer codes of core/wmi.json, read at the first repair (not when the plugin loads: `titled import` loads it). */
let knownWmi: Set<string> | undefined;
const isKnownWmi = (code: string) => (knownWmi ??= new Set(wmiTable().map((w) => w.wmi))).has(code);

/** What a repaired VIN must also satisfy: a known manufacturer code, a model year code at 10, digits at 14-17. */
const plausible = (v: string) => isKnownWmi(v.slice(0, 3)) && !/[UZ0]/.test(v[9]!) && /^\d{4}$/.test(v.slice(13));

const checks = (v: string) => VIN_ALPHABET.test(v) && computeCheckDigit(v) === v[8];

/** Characters OCR may read twice for one glyph ("1I", "O0"): a pair of equal or look-alike characters. */
const TWINS = new Set([
  '11',
  'I1',
  '1I',
  'II',
  'O0',
  '0O',
  '00',
  'OO',
  'Q0',
  '0Q',
  'L1',
  '1L',
  'S5',
  '5S',
  'B8',
  '8B',
  'Z2',
  '2Z',
  'G6',
  '6G',
]);

export function repairVin(raw: string): VinRead {
  const read = raw.toUpperCase().replace(/[\s-]/g, '');
  if (read.length === 18 && /^[A-Z0-9]{18}$/.test(read)) return repairDoubled(read);
  if (read.length !== 17 || !/^[A-Z0-9]{17}$/.test(read)) return { read, vin: read, status: 'malformed' };
  const forcedAt: number[] = [];
  const base = [...read]
    .map((c, i) => {
      if (FORCED[c]) {
        forcedAt.push(i + 1);
        return FORCED[c]!;
      }
      return c;
    })
    .join('');
  // certain unless an I was read as 1: a J read as I weighs 1 in the check digit too, so the check cannot tell them apart
  const certain = !forcedAt.some((i) => read[i - 1] === 'I');
  if (checks(base))
    return {
      read,
      vin: base,
      status: forcedAt.length ? 'repaired' : 'valid',
      ...(forcedAt.length ? { changed: forcedAt, ...(certain ? { certain } : {}) } : {}),
    };
  const positions = [...base].map((c, i) => (SWAPS[c] ? i : -1)).filter((i) => i >= 0);
  const swap = (v: string, idx: number[]) => {
    const a = [...v];
    for (const i of idx) a[i] = SWAPS[a[i]!]!;
    return a.join('');
  };
  // one swap at a time: two swaps would let the check digit (1 in 11) "confirm" a wrong candidate too often; and a
  // candidate must look like a VIN beyond its check digit: a manufacturer code (WMI) the VIN decoder knows, a model
  // year code at position 10, digits at positions 14 to 17
  const found = positions
    .map((i) => ({ vin: swap(base, [i]), idx: [i] }))
    .filter((f) => checks(f.vin) && plausible(f.vin));
  if (found.length === 1)
    return {
      read,
      vin: found[0]!.vin,
      status: 'repaired',
      changed: [...forcedAt, ...found[0]!.idx.map((i) => i + 1)].sort((a, b) => a - b),
    };
  if (found.length > 1) return { read, vin: base, status: 'unverified', candidates: found.length };
  return { read, vin: VIN_ALPHABET.test(base) ? base : read, status: 'unverified', candidates: 0 };
}

/**
 * An 18-character read with one glyph read twice: each twin pair is tried
 * with one of its characters dropped; repaired only when exactly one VIN
 * results whose check digit holds.
 */
function repairDoubled(read: string): VinRead {
  // look-alike pairs ("O0", "1I") first: a doubled identical character ("11") is as often simply right
  for (const identical of [false, true]) {
    const found = new Map<string, number>();
    for (let i = 0; i < 17; i++) {
      const pair = read.slice(i, i + 2);
      if (!TWINS.has(pair) || (pair[0] === pair[1]) !== identical) continue;
      for (const drop of [i, i + 1]) {
        const r = repairVin(read.slice(0, drop) + read.slice(drop + 1));
        if ((r.status === 'valid' || r.status === 'repaired') && !found.has(r.vin)) found.set(r.vin, drop + 1);
      }
    }
    if (found.size === 1) {
      const [[vin, at]] = [...found];
      return { read, vin, status: 'repaired', changed: [at] };
    }
    if (found.size > 1) return { read, vin: read, status: 'malformed', candidates: found.size };
  }
  // a speck read as a letter a VIN never holds (I, O, Q): dropped when exactly one checking, plausible VIN results
  const found = new Map<string, number>();
  for (let i = 0; i < 18; i++) {
    if (!/[IOQ]/.test(read[i]!)) continue;
    const r = repairVin(read.slice(0, i) + read.slice(i + 1));
    if ((r.status === 'valid' || r.status === 'repaired') && plausible(r.vin) && !found.has(r.vin))
      found.set(r.vin, i + 1);
  }
  if (found.size === 1) {
    const [[vin, at]] = [...found];
    return { read, vin, status: 'repaired', changed: [at] };
  }
  return { read, vin: read, status: 'malformed' };
}

export interface VinSpot {
  text: string;
  page: number;
  box: Box;
}

/**
 * Strings on the page that may be VINs: 17 letters and digits in a word or a
 * few adjacent words of a phrase (never joining whole words of letters, such
 * as a city name), ending in four digits as every VIN does.
 */
export function vinCandidates(l: Layout): VinSpot[] {
  const out: VinSpot[] = [];
  for (const p of l.phrases) {
    const ws = p.words.map((w) => w.text.toUpperCase().replace(/[^A-Z0-9]/g, ''));
    for (let i = 0; i < ws.length; i++) {
      let s = '';
      for (let j = i; j < ws.length && j < i + 5; j++) {
        if (j > i && /^[A-Z]{4,}$/.test(ws[j]!)) break;
        if (j === i + 1 && /^[A-Z]{4,}$/.test(ws[i]!)) break;
        s += ws[j];
        if ((s.length === 17 || s.length === 18) && /[A-Z]/.test(s) && /^\d{4}$/.test(digitish(s.slice(-4)))) {
          const ww = p.words.slice(i, j + 1);
          out.push({
            text: s,
            page: l.page,
            box: {
              x0: Math.min(...ww.map((w) => w.x0)),
              y0: Math.min(...ww.map((w) => w.y0)),
              x1: Math.max(...ww.map((w) => w.x1)),
              y1: Math.max(...ww.map((w) => w.y1)),
            },
          });
        }
        if (s.length >= 18) break;
      }
    }
  }
  return out;
}

/** The best VIN: a candidate whose check digit holds (as read or repaired) beats one that does not; ties go to the first. */
export function bestVin(cands: readonly (string | VinSpot)[]): VinRead | null {
  const reads = cands
    .map((c) => (typeof c === 'string' ? repairVin(c) : { ...repairVin(c.text), page: c.page, box: c.box }))
    .filter((r) => r.status !== 'malformed');
  const rank: Record<VinStatus, number> = { valid: 0, repaired: 1, unverified: 2, malformed: 3 };
  reads.sort((a, b) => rank[a.status] - rank[b.status]);
  return reads[0] ?? null;
}
