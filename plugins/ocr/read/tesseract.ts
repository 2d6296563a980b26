/**
 * OCR with tesseract through node-tesseract-ocr: word boxes as TSV, one
 * tesseract process per core (a p-queue shared by every job of the process)
 * and OMP_THREAD_LIMIT=1 in each (DESIGN.md: 3.5x faster per page than
 * tesseract's own threading on these machines). node-tesseract-ocr runs a
 * shell command built from its arguments: it gets only a temp file path this
 * module made (a PGM written just before the call, removed after it) and the
 * fixed options below, never text from a client. A file, not stdin: a 10 MB
 * page piped through the event loop stalls tesseract whenever the loop is
 * busy with another document.
 */
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import tesseract from 'node-tesseract-ocr';
import { packageRoot } from '../../../core/plugin-api.js';
import { pgmHeader, toPgm } from './image.js';
import type { Gray, Word } from './types.js';

const BINARY = 'OMP_THREAD_LIMIT=1 tesseract';
/** Our settings files (plugins/ocr/*.cfg), passed by path: only when the path needs no shell quoting. */
const configFile = (name: string) => {
  const p = join(packageRoot, 'plugins', 'ocr', name);
  return /^[A-Za-z0-9_./-]+$/.test(p) && existsSync(p) ? [p] : [];
};
const CONFIG = configFile('tesseract.cfg');
const VIN_CONFIG = configFile('tesseract-vin.cfg');

/** Parses tesseract's TSV: the words (level 5) with their boxes and confidence. */
function parseTsv(tsv: string): Word[] {
  const words: Word[] = [];
  for (const line of tsv.split('\n')) {
    const c = line.split('\t');
    if (c[0] !== '5' || c.length < 12) continue;
    const text = c.slice(11).join('\t').trim();
    const conf = Number(c[10]);
    if (!text || conf < 0) continue;
    const x0 = Number(c[6]);
    const y0 = Number(c[7]);
    words.push({ text, x0, y0, x1: x0 + Number(c[8]), y1: y0 + Number(c[9]), conf });
  }
  return words;
}

let shared: PQueue | undefined;

/** The process-wide OCR queue: `concurrency` tesseract processes at most (default: one per core). */
function ocrQueue(concurrency?: number): PQueue {
  if (!shared) shared = new PQueue({ concurrency: concurrency ?? availableParallelism() });
  else if (concurrency && shared.concurrency !== concurrency) shared.concurrency = concurrency;
  return shared;
}

export interface OcrOptions {
  /**
   * Page segmentation mode: 11 (sparse text, the default: forms are fields
   * scattered over the page, and the words' boxes, not tesseract's reading
   * order, are what the layout analysis uses; it also keeps dot leaders and
   * background patterns from swallowing whole lines), 3 (automatic) or 6.
   */
  psm?: 3 | 6 | 11;
  timeoutMs: number;
  signal?: AbortSignal;
  concurrency?: number;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    const onAbort = () => reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => {
      clearTimeout(t);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

let tempDir: string | null | undefined;
let tempSeq = 0;

/** A folder in memory (/dev/shm) when the machine has one: a page is written and read back once, it never needs a disk. */
function tempRoot(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/** This process's folder for page files (null when its path would need shell quoting); removed when the process exits. */
function pageDir(): string | null {
  if (tempDir === undefined) {
    const d = mkdtempSync(join(tempRoot(), 'titled-ocr-'));
    tempDir = /^[A-Za-z0-9_./-]+$/.test(d) ? d : null;
    process.once('exit', () => rmSync(d, { recursive: true, force: true }));
  }
  return tempDir;
}

/** Runs tesseract on a raster: from a temp PGM file this module writes (stdin when no safe folder exists). */
async function recognize(g: Gray, config: Record<string, unknown>): Promise<string> {
  const dir = pageDir();
  if (!dir) return String(await tesseract.recognize(toPgm(g), config));
  const file = join(dir, `p${process.pid}-${++tempSeq}.pgm`);
  const fh = await open(file, 'w');
  try {
    await fh.writev([pgmHeader(g), g.data]);
  } finally {
    await fh.close();
  }
  try {
    return String(await tesseract.recognize(file, config));
  } finally {
    await rm(file, { force: true });
  }
}

/** Words of a 300-dpi grayscale page. */
export async function ocrWords(g: Gray, o: OcrOptions): Promise<Word[]> {
  const tsv = await ocrQueue(o.concurrency).add(
    () => {
      o.signal?.throwIfAborted();
      return withTimeout(
        recognize(g, { lang: 'eng', oem: 1, psm: o.psm ?? 11, dpi: 300, presets: ['tsv', ...CONFIG], binary: BINARY }),
        o.timeoutMs,
        'tesseract',
        o.signal,
      );
    },
    { signal: o.signal },
  );
  return parseTsv(tsv);
}

/** One line of VIN characters (a crop around a VIN): tesseract limited to the VIN alphabet, single-line (7) or single-word (8) mode. */
export async function ocrVinLine(g: Gray, o: OcrOptions & { line?: 7 | 8 }): Promise<string> {
  const out = await ocrQueue(o.concurrency).add(
    () =>
      withTimeout(
        recognize(g, { lang: 'eng', oem: 1, psm: o.line ?? 7, dpi: 300, presets: VIN_CONFIG, binary: BINARY }),
        o.timeoutMs,
        'tesseract',
        o.signal,
      ),
    { signal: o.signal },
  );
  return out.trim();
}
