/**
 * OCR with tesseract: word boxes as TSV, one tesseract process per core (a
 * p-queue shared by every job of the process) and OMP_THREAD_LIMIT=1 in each
 * (DESIGN.md: 3.5x faster per page than tesseract's own threading on these
 * machines). Run through runTool (exec.ts), without a shell: a fixed argument
 * array, and a process that is killed when its time limit passes or its job is
 * cancelled (node-tesseract-ocr, used before, runs a shell command and gives no
 * handle on the process: a read that timed out ran on, holding a core). The
 * page goes in a temp file this module writes just before the call and
 * removes after it, not stdin: a 10 MB page piped through the event loop
 * stalls tesseract whenever the loop is busy with another document.
 */
import { existsSync, mkdtempSync, rmSync, accessSync, constants } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { packageRoot } from '../../../core/plugin-api-pure.js';
import { runTool } from './exec.js';
import { pgmHeader } from './image.js';
import type { Gray, Word } from './types.js';

/** Our settings files (plugins/ocr/*.cfg), passed by path. */
const configFile = (name: string) => {
  const p = join(packageRoot, 'plugins', 'ocr', name);
  return existsSync(p) ? [p] : [];
};
const CONFIG = configFile('tesseract.cfg');
const VIN_CONFIG = configFile('tesseract-vin.cfg');
/** Far more than any page's TSV (a dense page gives about 300 KB). */
const MAX_OUTPUT = 64 * 1024 * 1024;

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

let tempDir: string | undefined;
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

/** This process's folder for page files; removed when the process exits. */
function pageDir(): string {
  if (tempDir === undefined) {
    const d = mkdtempSync(join(tempRoot(), 'titled-ocr-'));
    tempDir = d;
    process.once('exit', () => rmSync(d, { recursive: true, force: true }));
  }
  return tempDir;
}

/**
 * Runs tesseract on a raster written to a temp PGM file: `psm` the page
 * segmentation mode, `configs` the config files (tesseract's own `tsv`, ours
 * by path). Killed past `timeoutMs` or when `signal` aborts (a ToolError, or
 * the signal's reason).
 */
async function recognize(g: Gray, psm: number, configs: string[], o: OcrOptions): Promise<string> {
  const file = join(pageDir(), `p${process.pid}-${++tempSeq}.pgm`);
  const fh = await open(file, 'w');
  try {
    await fh.writev([pgmHeader(g), g.data]);
  } finally {
    await fh.close();
  }
  try {
    const args = [file, 'stdout', '-l', 'eng', '--oem', '1', '--psm', String(psm), '--dpi', '300', ...configs];
    const out = await runTool('tesseract', args, {
      timeoutMs: o.timeoutMs,
      maxOutputBytes: MAX_OUTPUT,
      signal: o.signal,
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    return out.toString('utf8');
  } finally {
    await rm(file, { force: true });
  }
}

/** Words of a 300-dpi grayscale page. */
export async function ocrWords(g: Gray, o: OcrOptions): Promise<Word[]> {
  const tsv = await ocrQueue(o.concurrency).add(
    () => {
      o.signal?.throwIfAborted();
      return recognize(g, o.psm ?? 11, ['tsv', ...CONFIG], o);
    },
    { signal: o.signal },
  );
  return parseTsv(tsv);
}

/** One line of VIN characters (a crop around a VIN): tesseract limited to the VIN alphabet, single-line (7) or single-word (8) mode. */
export async function ocrVinLine(g: Gray, o: OcrOptions & { line?: 7 | 8 }): Promise<string> {
  const out = await ocrQueue(o.concurrency).add(() => recognize(g, o.line ?? 7, VIN_CONFIG, o), { signal: o.signal });
  return out.trim();
}
