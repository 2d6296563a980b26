/**
 * Runs a document type's field specs over its pages: values from the first
 * page that has them, blocks (owners, lienholder, address) from the first
 * page whose label has lines under it (above it on a page that prints
 * values above their labels; of several labels of a block, the one whose
 * lines read most like a party's), and the page's VIN.
 */
import { blockAbove, blockUnder, extractFields, type FieldSpec } from '../layout/fields.js';
import { isStreetLine, parseCityLine } from '../layout/text.js';
import type { Layout } from '../layout/layout.js';
import type { Box } from '../layout/fields.js';
import { bestVin, vinCandidates, type VinRead, type VinSpot } from './vin.js';

interface BlockSpec {
  key: string;
  labels: readonly string[];
}

export interface SpecResult {
  values: Record<string, string>;
  how: Record<string, string>;
  blocks: Record<string, string[]>;
  vin: VinRead | null;
  /** Where a VIN may be printed (around the VIN labels), for reading it again when none checks. */
  vinRegions: { page: number; box: Box }[];
}

/** How much lines read like a party's block: a "CITY, ST ZIP" line, a street line, a NONE. */
const blockScore = (lines: readonly string[]) =>
  (lines.some((x) => parseCityLine(x)) ? 2 : 0) +
  (lines.some((x) => isStreetLine(x)) ? 1 : 0) +
  (/^\s*(NONE|N\/A)\b/i.test(lines[0] ?? '') ? 2 : 0);

export function runSpecs(
  pages: readonly Layout[],
  specs: readonly FieldSpec[],
  blocks: readonly BlockSpec[] = [],
  stoppers: readonly string[] = [],
): SpecResult {
  const values: Record<string, string> = {};
  const how: Record<string, string> = {};
  const out: Record<string, string[]> = {};
  const blockSpecs: FieldSpec[] = blocks.map((b) => ({ key: b.key, labels: b.labels, parse: () => null }));
  const blockKeys = new Set(blocks.map((b) => b.key));
  const vinReads: VinSpot[] = [];
  const labelled: VinSpot[] = [];
  const vinRegions: SpecResult['vinRegions'] = [];
  for (const l of pages) {
    const ex = extractFields(l, [...specs, ...blockSpecs], stoppers);
    for (const [k, v] of Object.entries(ex.values)) {
      if (values[k] === undefined) {
        values[k] = v.value;
        how[k] = v.how;
      }
    }
    for (const b of blocks) {
      if (out[b.key]?.length) continue;
      // every label of the block is tried: the block that reads most like a party wins ("OWNER COPY" in a corner is a label too)
      let best: { lines: string[]; score: number } | null = null;
      for (const hit of ex.hits.filter((h) => h.key === b.key)) {
        // on a page that prints values above their labels, a block may be above its label too (when it reads as well as the lines under it)
        const under = blockUnder(l, hit, ex.hits);
        const above = ex.side === 'above' ? blockAbove(l, hit, ex.hits, blockKeys) : [];
        const lines = above.length && (!under.length || blockScore(above) >= blockScore(under)) ? above : under;
        if (!lines.length) continue;
        const score = blockScore(lines);
        if (!best || score > best.score) best = { lines, score };
      }
      if (best) out[b.key] = best.lines;
    }
    if (ex.values.vin) labelled.push({ text: ex.values.vin.value, page: l.page, box: ex.values.vin.box });
    vinReads.push(...vinCandidates(l));
    for (const h of ex.hits.filter((x) => x.key === 'vin')) {
      const u = h.phrase.h;
      vinRegions.push({
        page: l.page,
        box: { x0: h.x1, y0: h.y0 - 0.6 * u, x1: Math.min(l.width, h.x1 + 50 * u), y1: h.y1 + 0.6 * u },
      });
      vinRegions.push({
        page: l.page,
        box: {
          x0: Math.max(0, h.x0 - u),
          y0: h.y1,
          x1: Math.min(l.width, h.x0 + 26 * u),
          y1: Math.min(l.height, h.y1 + 2.6 * u),
        },
      });
    }
  }
  // the labelled VIN first; any other 17-character string on the page when it does not check
  const lab = bestVin(labelled);
  const vin = lab && lab.status !== 'unverified' ? lab : bestVin([...labelled, ...vinReads]);
  if (vin?.box) vinRegions.unshift({ page: vin.page!, box: vin.box });
  else {
    // no string read is a VIN: where one that may be was read (18 characters: a speck, or a 1 read as two), it is
    // read again first, before the space beside the labels (a page that prints its values above their labels)
    const spots = [...labelled, ...vinReads].filter((c) => c.box && c.page !== undefined);
    vinRegions.unshift(...spots.slice(0, 2).map((c) => ({ page: c.page!, box: c.box! })));
  }
  return { values, how, blocks: out, vin, vinRegions };
}
