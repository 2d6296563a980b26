/**
 * Page layout from word boxes: rows (words sharing a baseline band) and
 * phrases (runs of words in a row without a wide gap, dot leader or rule
 * between them). Labels and values are found among phrases, so the same
 * code reads boxed grids, "LABEL: value" lines, label/value columns, tables
 * and labels printed under their values, in portrait or landscape.
 */
import type { PageText, Word } from '../read/types.js';
import { tokenKey } from './text.js';

export interface Phrase {
  id: number;
  words: Word[];
  /** Label tokens of the words (uppercase letters, digits, #). */
  tokens: string[];
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Height of the row's words (median). */
  h: number;
  row: number;
  /** A dot leader or rule runs from the row's previous phrase to this one (a label's value across a table row). */
  lead?: boolean;
}

export interface Layout {
  /** The page number in the document (1-based). */
  page: number;
  width: number;
  height: number;
  /** Median word height on the page: the unit of every distance threshold. */
  h: number;
  rows: Phrase[][];
  phrases: Phrase[];
}

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** Leaders and rules read as text ("......", "____", "|"): they separate a label from its value. */
const isBarrier = (w: Word) =>
  /^[._\-=~·•:|]{2,}$/.test(w.text) || /^[|[\]{}]$/.test(w.text) || /^\.{3,}/.test(w.text) || isLeaderJunk(w.text);

/** A dot leader OCR read as letters ("OOOECCCCSSSE..."): long, made of round letters and dots only, few distinct ones. */
function isLeaderJunk(t: string): boolean {
  if (/^[Oo0.]{3,}$/.test(t) && /[.Oo]/.test(t)) return true;
  if (t.length < 7) return false;
  const round = [...t].filter((c) => /[OoCcEeSsNnVvUuIi0.,:;'`~_-]/.test(c)).length;
  if (round < t.length * 0.95) return false;
  const distinct = new Set(t.toUpperCase()).size;
  return (
    (distinct <= 5 || t.length >= 12) && !/^(SUCCESS|SUCCESSES|CONCESSIONS?|SESSIONS?|NONSENSE|OCCUPIES)$/i.test(t)
  );
}

/**
 * A dot leader OCR read as a run of short words ("eee reer ere errr eee"):
 * three unsure words or more in a row (confidence under 45), letters only,
 * 10 letters or more, at least 40% of them E's (what tesseract makes of a
 * row of dots). Words read with confidence are never part of one.
 */
function leaderRuns(ws: readonly Word[]): Set<Word> {
  const out = new Set<Word>();
  const unsure = (w: Word) => w.conf < 45 && /^[A-Za-z.,:;'`~()|_-]+$/.test(w.text);
  for (let i = 0; i < ws.length; i++) {
    if (!unsure(ws[i]!)) continue;
    let j = i;
    while (j + 1 < ws.length && unsure(ws[j + 1]!)) j++;
    const run = ws.slice(i, j + 1);
    const letters = run.map((w) => w.text.replace(/[^A-Za-z]/g, '')).join('');
    const es = [...letters].filter((c) => c === 'e' || c === 'E').length;
    if (run.length >= 3 && letters.length >= 10 && es >= 0.4 * letters.length) for (const w of run) out.add(w);
    i = j;
  }
  return out;
}

/** A leader (dots, dashes, underscores, or OCR's reading of dots) rather than a box border. */
const isLeader = (w: Word) => /[.·•_~=-]{3,}/.test(w.text) || isLeaderJunk(w.text);

/** Words without a letter, digit or meaningful sign are noise (box borders, specks). */
const isNoise = (w: Word) =>
  !/[A-Za-z0-9&$#%]/.test(w.text) || (w.conf < 15 && w.text.length <= 2 && !/^[A-Z0-9]+$/.test(w.text));

/** Strips a trailing run of dots from a word ("Number........" -> "Number"). */
function trimLeader(w: Word): Word {
  const m = /^(.*?[A-Za-z0-9)])\.{2,}\S*$/.exec(w.text);
  return m ? { ...w, text: m[1]!, x1: w.x0 + (w.x1 - w.x0) * (m[1]!.length / w.text.length) } : w;
}

export function buildLayout(page: Pick<PageText, 'width' | 'height' | 'words'> & { page?: number }): Layout {
  const words = page.words.map(trimLeader).filter((w) => w.x1 > w.x0 && w.y1 > w.y0);
  const h = median(words.filter((w) => !isBarrier(w) && !isNoise(w)).map((w) => w.y1 - w.y0)) || 30;
  // rows: each word joins the open row it overlaps most vertically
  const byY = [...words].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
  const rows: { y0: number; y1: number; words: Word[] }[] = [];
  for (const w of byY) {
    const wh = w.y1 - w.y0;
    let best: (typeof rows)[number] | undefined;
    let bestOv = 0;
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 6; i--) {
      const r = rows[i]!;
      const ov = Math.min(r.y1, w.y1) - Math.max(r.y0, w.y0);
      if (ov > bestOv && ov >= 0.5 * Math.min(wh, r.y1 - r.y0)) {
        best = r;
        bestOv = ov;
      }
    }
    if (best) {
      best.words.push(w);
      // the band follows the row's typical word, not its tallest one
      const hs = best.words.map((x) => x.y1 - x.y0);
      const cy = median(best.words.map((x) => (x.y0 + x.y1) / 2));
      const rh = median(hs);
      best.y0 = cy - rh / 2;
      best.y1 = cy + rh / 2;
    } else rows.push({ y0: w.y0, y1: w.y1, words: [w] });
  }
  rows.sort((a, b) => a.y0 - b.y0);
  const out: Phrase[][] = [];
  const phrases: Phrase[] = [];
  for (const r of rows) {
    const ws = r.words.sort((a, b) => a.x0 - b.x0);
    const leaders = leaderRuns(ws);
    const barrier = (w: Word) => isBarrier(w) || leaders.has(w);
    const rh = median(ws.filter((w) => !barrier(w)).map((w) => w.y1 - w.y0)) || h;
    const rowPhrases: Phrase[] = [];
    let cur: Word[] = [];
    let led = false;
    const flush = () => {
      const kept = cur.filter((w) => !isNoise(w));
      if (kept.length) {
        const p: Phrase = {
          id: phrases.length,
          words: kept,
          tokens: kept.map((w) => tokenKey(w.text)),
          text: kept.map((w) => w.text).join(' '),
          x0: Math.min(...kept.map((w) => w.x0)),
          y0: Math.min(...kept.map((w) => w.y0)),
          x1: Math.max(...kept.map((w) => w.x1)),
          y1: Math.max(...kept.map((w) => w.y1)),
          h: rh,
          row: out.length,
          ...(led && rowPhrases.length ? { lead: true } : {}),
        };
        rowPhrases.push(p);
        phrases.push(p);
        led = false;
      }
      cur = [];
    };
    for (const w of ws) {
      const prevW = cur[cur.length - 1];
      if (barrier(w)) {
        flush();
        // a leader (not a box border) after a phrase links it to the next one
        if (rowPhrases.length && (isLeader(w) || leaders.has(w))) led = true;
        continue;
      }
      if (prevW && w.x0 - prevW.x1 > 1.5 * rh) flush();
      cur.push(w);
    }
    flush();
    if (rowPhrases.length) out.push(rowPhrases);
  }
  return { page: page.page ?? 1, width: page.width, height: page.height, h, rows: out, phrases };
}
