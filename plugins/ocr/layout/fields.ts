/**
 * Key/value extraction from a layout. A field has label spellings and a
 * parser. Labels are found in phrases (tolerant to OCR misreads; the longest
 * label wins where two overlap; a label starts a phrase, follows a field
 * number or ends in a colon). A label's value is the best parsable candidate
 * among: the rest of its phrase, the next phrase to its right (however far
 * when a dot leader joins them), the nearest
 * phrase below it or above it (labels printed under their values). Which
 * vertical side a page puts values on is voted by the typed fields (dates,
 * VIN, years) and then preferred for every field of the page.
 */
import type { Word } from '../read/types.js';
import type { Layout, Phrase } from './layout.js';
import { collapse, letterish, tokenKey, tokenMatches } from './text.js';

export interface FieldSpec {
  key: string;
  labels: readonly string[];
  /** Normalizes a candidate; null when the candidate is not a value of this field. */
  parse: (text: string) => string | null;
  /** Typed fields (their parser rejects most text) vote for the page's value side. */
  typed?: boolean;
}

export interface LabelHit {
  key: string;
  phrase: Phrase;
  start: number;
  end: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
type How = 'inline' | 'right' | 'below' | 'above';
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface Candidate {
  text: string;
  how: How;
  dist: number;
  hit: LabelHit;
  box: Box;
}
interface FieldValue {
  value: string;
  how: How;
  label: string;
  box: Box;
}

const boxOf = (ws: readonly Word[]): Box => ({
  x0: Math.min(...ws.map((w) => w.x0)),
  y0: Math.min(...ws.map((w) => w.y0)),
  x1: Math.max(...ws.map((w) => w.x1)),
  y1: Math.max(...ws.map((w) => w.y1)),
});

const FIELD_NUMBER = /^\d{1,2}[A-D]?$/;

const labelTokens = new Map<string, string[]>();
/** A label's tokens (the label vocabularies are fixed: each is split once per process). */
const tokenize = (label: string) => {
  let t = labelTokens.get(label);
  if (!t)
    labelTokens.set(
      label,
      (t = label
        .split(/[\s/]+/)
        .map(tokenKey)
        .filter(Boolean)),
    );
  return t;
};

/** A read token that is the label word itself (OCR's digit/letter look-alikes and a plural aside), not one edit away from it. */
const exactToken = (read: string, want: string) =>
  read === want || letterish(read) === want || (want.length >= 4 && read === want + 'S');

interface Match {
  end: number;
  fuzzy: boolean;
}

/**
 * Where a label's tokens, matched from word `start` on, end (exclusive word
 * index), and whether a word matched only within an edit; null when the
 * label is not there. A word may hold several label tokens
 * ("TITLE/DOCUMENT", "OWNER(S)"), a label word may be printed as two
 * ("LIEN HOLDER" for LIENHOLDER, "Y ear" split by kerning), a word of
 * slash-separated parts holds a label in one run of its parts ("PLATE/TAG",
 * "YR/MAKE"); words without letters or digits (a lone colon) are skipped.
 */
function matchAt(
  words: readonly string[],
  raw: readonly string[],
  start: number,
  label: readonly string[],
): Match | null {
  if (!words[start]) return null;
  let i = start;
  let k = 0;
  let fuzzy = false;
  while (k < label.length) {
    while (i < words.length && !words[i]) i++;
    if (i >= words.length) return null;
    const w = words[i]!;
    const want = label[k]!;
    if (tokenMatches(w, want)) {
      if (!exactToken(w, want)) fuzzy = true;
      i++;
      k++;
      continue;
    }
    // a word OCR split by kerning ("Y ear", "J EEP"), or a label word printed as two ("LIEN HOLDER")
    const next = words[i + 1];
    if (next && (w.length <= 2 ? tokenMatches(w + next, want) : exactToken(w + next, want))) {
      i += 2;
      k++;
      continue;
    }
    // several label words run together in one read word ("TITLE/DOCUMENT" read as one): only a word long enough to hold two
    const second = label[k + 1];
    if (second && w.length + 2 >= want.length + second.length) {
      let joined = want;
      let n = k + 1;
      while (n < label.length && joined.length < w.length) joined += label[n++];
      if (tokenMatches(w, joined)) {
        if (!exactToken(w, joined)) fuzzy = true;
        i++;
        k = n;
        continue;
      }
    }
    // "PLATE/TAG": the label is one run of the word's parts (from its first part when the label began before the word)
    if (!raw[i]?.includes('/')) return null;
    const parts = raw[i]!.split('/').map(tokenKey).filter(Boolean);
    let took = 0;
    for (let s = 0; parts.length > 1 && s < parts.length && !took && (k === 0 || s === 0); s++) {
      let j = 0;
      while (s + j < parts.length && k + j < label.length && tokenMatches(parts[s + j]!, label[k + j]!)) j++;
      if (j && (k + j === label.length || s + j === parts.length)) took = j;
    }
    if (took) {
      i++;
      k += took;
      continue;
    }
    return null;
  }
  return { end: i, fuzzy };
}

/**
 * Every label hit on the page, overlaps resolved (the label of most words
 * first). A label word matched only within an edit, when the label is that
 * one word, must look like a label: alone in its phrase, with a colon, or
 * before a number ("WRIGHT, MELISSA" is a name, not WEIGHT).
 */
export function findLabels(l: Layout, defs: readonly { key: string; labels: readonly string[] }[]): LabelHit[] {
  const all: { key: string; tokens: string[] }[] = [];
  for (const d of defs) for (const lab of d.labels) all.push({ key: d.key, tokens: tokenize(lab) });
  const raw: (LabelHit & { n: number })[] = [];
  for (const p of l.phrases) {
    const texts = p.words.map((w) => w.text);
    // a label starts its phrase (after field numbers at most), or ends at a colon: other starts need a colon after them
    let lead = 0;
    while (lead < p.words.length && (FIELD_NUMBER.test(texts[lead]!) || texts[lead]!.endsWith(':'))) lead++;
    let lastColon = -1;
    texts.forEach((t, i) => {
      if (t.endsWith(':') || (i > 0 && t.startsWith(':'))) lastColon = i;
    });
    const starts = Math.min(p.tokens.length, Math.max(lead + 1, lastColon + 1));
    for (const def of all) {
      for (let start = 0; start < starts; start++) {
        const m = matchAt(p.tokens, texts, start, def.tokens);
        if (!m) continue;
        const end = m.end;
        const before = p.words.slice(0, start);
        const lastWord = p.words[end - 1]!.text;
        const nextWord = p.words[end]?.text ?? '';
        const allowed =
          start === 0 ||
          before.every((w) => FIELD_NUMBER.test(w.text) || w.text.endsWith(':')) ||
          /:$/.test(lastWord) ||
          /^:/.test(nextWord);
        if (!allowed) continue;
        if (
          m.fuzzy &&
          def.tokens.length === 1 &&
          !(end >= p.words.length || /:$/.test(lastWord) || /^:/.test(nextWord) || /\d/.test(nextWord))
        )
          continue;
        const ws = p.words.slice(start, end);
        raw.push({
          key: def.key,
          phrase: p,
          start,
          end,
          n: def.tokens.length,
          x0: Math.min(...ws.map((w) => w.x0)),
          y0: Math.min(...ws.map((w) => w.y0)),
          x1: Math.max(...ws.map((w) => w.x1)),
          y1: Math.max(...ws.map((w) => w.y1)),
        });
      }
    }
  }
  raw.sort((a, b) => b.n - a.n || b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: LabelHit[] = [];
  for (const { n: _n, ...h } of raw) {
    if (kept.some((k) => k.phrase === h.phrase && k.start < h.end && h.start < k.end)) continue;
    kept.push(h);
  }
  return kept.sort((a, b) => a.phrase.id - b.phrase.id || a.start - b.start);
}

/** Whether a phrase begins with a label (a value is never such a phrase). */
const startsWithLabel = (p: Phrase, hits: LabelHit[]) =>
  hits.some((h) => h.phrase === p && p.words.slice(0, h.start).every((w) => FIELD_NUMBER.test(w.text)));

const xOverlap = (a: { x0: number; x1: number }, b: { x0: number; x1: number }) =>
  Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);

/** The nearest phrase below (dir 1) or above (dir -1) a hit, overlapping its columns. */
function vertical(l: Layout, hit: LabelHit, hits: LabelHit[], dir: 1 | -1): Candidate | null {
  const h = hit.phrase.h;
  const span = { x0: hit.x0 - h, x1: Math.max(hit.x1, hit.x0 + 4 * h) };
  let best: { p: Phrase; d: number } | null = null;
  for (const p of l.phrases) {
    const d = dir === 1 ? p.y0 - hit.y1 : hit.y0 - p.y1;
    if (d < -0.3 * h || d > 3.5 * h || p === hit.phrase) continue;
    if (xOverlap(span, p) <= 0) continue;
    if (
      !best ||
      d < best.d - 0.2 * h ||
      (Math.abs(d - best.d) <= 0.2 * h && Math.abs(p.x0 - hit.x0) < Math.abs(best.p.x0 - hit.x0))
    )
      best = { p, d };
  }
  if (!best || startsWithLabel(best.p, hits)) return null;
  // a phrase that holds a label further on contributes only the words before it
  const next = hits.filter((x) => x.phrase === best!.p).sort((a, b) => a.start - b.start)[0];
  const words = next ? best.p.words.slice(0, next.start) : best.p.words;
  if (!words.length) return null;
  return {
    text: words.map((w) => w.text).join(' '),
    how: dir === 1 ? 'below' : 'above',
    dist: Math.max(0, best.d) / h,
    hit,
    box: boxOf(words),
  };
}

/** Value candidates of one label hit. */
export function candidates(l: Layout, hit: LabelHit, hits: LabelHit[]): Candidate[] {
  const out: Candidate[] = [];
  const p = hit.phrase;
  const nextInPhrase = hits.filter((x) => x.phrase === p && x.start >= hit.end).sort((a, b) => a.start - b.start)[0];
  const inlineWords = p.words.slice(hit.end, nextInPhrase ? nextInPhrase.start : undefined);
  const inline = inlineWords
    .map((w) => w.text)
    .join(' ')
    .replace(/^[:#\s]+/, '');
  if (inline) out.push({ text: inline, how: 'inline', dist: 0, hit, box: boxOf(inlineWords) });
  const row = l.rows[p.row]!;
  const right = row.find((q) => q.x0 > p.x1 - 1 && q !== p);
  // a leader from the label to the phrase ties them however far apart (a table of amounts)
  const led = !!right?.lead && row[row.indexOf(right) - 1] === p;
  if (right && !nextInPhrase && !startsWithLabel(right, hits) && (led || right.x0 - p.x1 < 0.4 * l.width)) {
    const cut = hits.filter((x) => x.phrase === right).sort((a, b) => a.start - b.start)[0];
    const words = cut ? right.words.slice(0, cut.start) : right.words;
    if (words.length)
      out.push({
        text: words.map((w) => w.text).join(' '),
        how: 'right',
        dist: led ? 0 : (right.x0 - p.x1) / p.h,
        hit,
        box: boxOf(words),
      });
  }
  for (const dir of [1, -1] as const) {
    const c = vertical(l, hit, hits, dir);
    if (c) out.push(c);
  }
  return out;
}

const BASE: Record<How, number> = { inline: 0, right: 1, below: 1.2, above: 1.6 };

/** How far a value candidate is from its label, all told (lower is better): its side, its distance, and the page's usual side. */
export const candidateScore = (c: Candidate, side: 'below' | 'above' | null): number =>
  BASE[c.how] + (c.how === 'right' ? c.dist / 10 : c.dist * 0.3) - (side && c.how === side ? 0.6 : 0);

/**
 * The side of their labels a page prints values on, where the label has
 * nothing to its right: voted by the page's typed fields (a date, a VIN
 * parses only as what it is), null without two votes.
 */
export function valueSide(l: Layout, hits: LabelHit[], specs: readonly FieldSpec[]): 'below' | 'above' | null {
  const byKey = new Map(specs.map((s) => [s.key, s]));
  let below = 0;
  let above = 0;
  for (const h of hits) {
    const spec = byKey.get(h.key);
    if (!spec?.typed) continue;
    const cs = candidates(l, h, hits).filter((c) => spec.parse(c.text) !== null);
    if (cs.some((c) => c.how === 'inline' || c.how === 'right')) continue;
    const b = cs.find((c) => c.how === 'below');
    const a = cs.find((c) => c.how === 'above');
    if (b && (!a || b.dist <= a.dist)) below++;
    else if (a) above++;
  }
  return below + above >= 2 ? (below >= above ? 'below' : 'above') : null;
}

interface Extraction {
  values: Record<string, FieldValue>;
  hits: LabelHit[];
  /** The side of their labels this page prints values on, when its typed fields tell. */
  side: 'below' | 'above' | null;
}

/**
 * Extracts every field of `specs` from the page. `stoppers` are labels of
 * things not extracted (they end blocks and are never taken for values).
 */
export function extractFields(l: Layout, specs: readonly FieldSpec[], stoppers: readonly string[] = []): Extraction {
  const hits = findLabels(l, [...specs, { key: '_stop', labels: stoppers }]);
  const side = valueSide(l, hits, specs);
  const values: Record<string, FieldValue> = {};
  for (const spec of specs) {
    let best: { c: Candidate; v: string; score: number } | null = null;
    for (const h of hits.filter((x) => x.key === spec.key)) {
      for (const c of candidates(l, h, hits)) {
        const v = spec.parse(collapse(c.text));
        if (v === null) continue;
        const score = candidateScore(c, side);
        if (!best || score < best.score) best = { c, v, score };
      }
    }
    if (best)
      values[spec.key] = {
        value: best.v,
        how: best.c.how,
        label: best.c.hit.phrase.words
          .slice(best.c.hit.start, best.c.hit.end)
          .map((w) => w.text)
          .join(' '),
        box: best.c.box,
      };
  }
  return { values, hits, side };
}

/**
 * The lines of a block under a label (owners, lienholder, address): the
 * rest of the label's phrase, then the rows below inside the label's column,
 * until a wide vertical gap, a phrase that starts with a label, or `maxLines`.
 */
export function blockUnder(l: Layout, hit: LabelHit, hits: LabelHit[], maxLines = 8): string[] {
  const lines: string[] = [];
  const p = hit.phrase;
  const h = p.h;
  const next = hits.filter((x) => x.phrase === p && x.start >= hit.end).sort((a, b) => a.start - b.start)[0];
  const inline = p.words
    .slice(hit.end, next ? next.start : undefined)
    .map((w) => w.text)
    .join(' ')
    .replace(/^[:#\s]+/, '')
    .trim();
  if (inline) lines.push(inline);
  const rightOf = l.rows[p.row]!.filter((q) => q.x0 > hit.x1 + h && q !== p);
  const colX0 = hit.x0 - 2 * h;
  const colX1 = rightOf.length ? Math.min(...rightOf.map((q) => q.x0)) - 0.5 * h : l.width;
  let lastY = hit.y1;
  for (let r = p.row + 1; r < l.rows.length && lines.length < maxLines; r++) {
    const inCol = l.rows[r]!.filter((q) => q.x0 >= colX0 && q.x0 < colX1 && q.x0 <= hit.x0 + 15 * h);
    if (!inCol.length) continue;
    const top = Math.min(...inCol.map((q) => q.y0));
    if (top - lastY > 2.4 * h) break;
    if (startsWithLabel(inCol[0]!, hits)) break;
    const parts: string[] = [];
    for (const q of inCol) {
      const cut = hits.filter((x) => x.phrase === q).sort((a, b) => a.start - b.start)[0];
      const ws = cut ? q.words.slice(0, cut.start) : q.words;
      if (ws.length) parts.push(ws.map((w) => w.text).join(' '));
      if (cut) break;
    }
    if (parts.length) lines.push(parts.join(' '));
    lastY = Math.max(...inCol.map((q) => q.y1));
  }
  return lines;
}

/**
 * The lines of a block printed above its label (a label under a rule, the
 * names and address over it): the rows above the label inside its column,
 * nearest first, until a wide vertical gap or a row that holds a label.
 * None when that label is a block's (`blockKeys`): the lines are its block,
 * under it.
 */
export function blockAbove(
  l: Layout,
  hit: LabelHit,
  hits: LabelHit[],
  blockKeys: ReadonlySet<string>,
  maxLines = 8,
): string[] {
  const p = hit.phrase;
  const u = Math.max(p.h, l.h);
  const rightOf = l.rows[p.row]!.filter((q) => q.x0 > hit.x1 + u && q !== p);
  const colX0 = hit.x0 - 2 * u;
  const colX1 = rightOf.length ? Math.min(...rightOf.map((q) => q.x0)) - 0.5 * u : l.width;
  const lines: string[] = [];
  let top = hit.y0;
  for (let r = p.row - 1; r >= 0 && lines.length < maxLines; r--) {
    const inCol = l.rows[r]!.filter((q) => q.x0 >= colX0 && q.x0 < colX1 && q.x0 <= hit.x0 + 15 * u);
    if (!inCol.length) continue;
    if (top - Math.max(...inCol.map((q) => q.y1)) > 2.4 * u) break;
    const labelled = hits.filter((x) => inCol.includes(x.phrase));
    if (labelled.some((x) => blockKeys.has(x.key))) return [];
    if (labelled.length) break;
    lines.unshift(inCol.map((q) => q.text).join(' '));
    top = Math.min(...inCol.map((q) => q.y0));
  }
  return lines;
}
