/**
 * PDFs with poppler: the text layer with word boxes (`pdftotext
 * -bbox-layout`, no OCR needed when a page has one) and 300-dpi grayscale
 * rasters of pages that have none (`pdftoppm -gray`, PGM on stdout). The
 * PDF goes in on stdin: no temp files, no client text on a command line.
 */
import { runTool, ToolError } from './exec.js';
import { PX_PER_PT, type Gray, type Word } from './types.js';

export interface TextLayerPage {
  width: number;
  height: number;
  words: Word[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) =>
  s.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#')
      return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/** Parses `pdftotext -bbox-layout` XHTML into pages of words (300-dpi pixel coordinates). */
function parseBboxLayout(xhtml: string): TextLayerPage[] {
  const pages: TextLayerPage[] = [];
  const pageRe = /<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g;
  const wordRe = /<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)<\/word>/g;
  for (const pm of xhtml.matchAll(pageRe)) {
    const words: Word[] = [];
    for (const wm of pm[3]!.matchAll(wordRe)) {
      const text = decode(wm[5]!).trim();
      if (!text) continue;
      words.push({
        text,
        x0: Number(wm[1]) * PX_PER_PT,
        y0: Number(wm[2]) * PX_PER_PT,
        x1: Number(wm[3]) * PX_PER_PT,
        y1: Number(wm[4]) * PX_PER_PT,
        conf: 100,
      });
    }
    pages.push({ width: Number(pm[1]) * PX_PER_PT, height: Number(pm[2]) * PX_PER_PT, words });
  }
  return pages;
}

interface PdfLimits {
  maxPages: number;
  toolTimeoutMs: number;
  signal?: AbortSignal;
}

/** The text layer of the first `maxPages` pages (a page without one has no words). */
export async function readTextLayer(pdf: Buffer, o: PdfLimits): Promise<TextLayerPage[]> {
  const out = await runTool(
    'pdftotext',
    ['-q', '-bbox-layout', '-enc', 'UTF-8', '-f', '1', '-l', String(o.maxPages), '-', '-'],
    {
      input: pdf,
      timeoutMs: o.toolTimeoutMs,
      maxOutputBytes: 64 * 1024 * 1024,
      signal: o.signal,
    },
  );
  return parseBboxLayout(out.toString('utf8'));
}

/** Number of pages (pdfinfo), for telling whether a document has more than `maxPages`. */
export async function pageCount(pdf: Buffer, o: PdfLimits): Promise<number> {
  const out = (
    await runTool('pdfinfo', ['-'], {
      input: pdf,
      timeoutMs: o.toolTimeoutMs,
      maxOutputBytes: 1024 * 1024,
      signal: o.signal,
    })
  ).toString('utf8');
  const m = /^Pages:\s+(\d+)/m.exec(out);
  return m ? Number(m[1]) : 0;
}

/** Parses a binary PGM (P5, 8-bit). */
function parsePgm(buf: Buffer): Gray {
  let pos = 0;
  const tokens: string[] = [];
  while (tokens.length < 4) {
    while (pos < buf.length && /\s/.test(String.fromCharCode(buf[pos]!))) pos++;
    if (buf[pos] === 0x23) {
      while (pos < buf.length && buf[pos] !== 0x0a) pos++;
      continue;
    }
    const start = pos;
    while (pos < buf.length && !/\s/.test(String.fromCharCode(buf[pos]!))) pos++;
    tokens.push(buf.subarray(start, pos).toString('latin1'));
  }
  pos++;
  const [magic, w, h, max] = tokens;
  if (magic !== 'P5' || Number(max) !== 255)
    throw new ToolError(`unexpected raster format ${magic} (max ${max})`, 'TOOL_FAILED');
  const width = Number(w);
  const height = Number(h);
  return { data: buf.subarray(pos, pos + width * height), width, height };
}

/**
 * Rasterizes one page, grayscale, at `dpi` lowered so the raster stays under
 * `maxPixels` (a page of absurd size must not exhaust memory).
 */
export async function rasterizePage(
  pdf: Buffer,
  page: number,
  sizePt: { width: number; height: number },
  o: PdfLimits & { dpi: number; maxPixels: number },
): Promise<{ gray: Gray; dpi: number }> {
  const areaIn2 = (sizePt.width / 72) * (sizePt.height / 72);
  const dpi = Math.max(36, Math.min(o.dpi, Math.floor(Math.sqrt(o.maxPixels / Math.max(areaIn2, 1e-6)))));
  const out = await runTool(
    'pdftoppm',
    ['-q', '-r', String(dpi), '-gray', '-f', String(page), '-l', String(page), '-singlefile', '-'],
    {
      input: pdf,
      timeoutMs: o.toolTimeoutMs,
      maxOutputBytes: o.maxPixels + 1024,
      signal: o.signal,
    },
  );
  return { gray: parsePgm(out), dpi };
}
