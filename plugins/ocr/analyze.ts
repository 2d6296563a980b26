/**
 * The one code path from a document's bytes to its classification and
 * extracted fields, used by the ocr stage, `titled extract`, the tests and
 * the bench: sniff, read pages (text layer, or rasterize + preprocess +
 * OCR), read AAMVA barcodes where a license may be, classify, extract per
 * type.
 */
import sharp from 'sharp';
import type { AccountData } from '../../core/plugin-api.js';
import { classifyDocument, classifyPage, type Classification, type DocumentType } from './classify.js';
import { parseAamva, type AamvaRecord } from './extract/aamva.js';
import type { Fields } from './extract/common.js';
import { barcodeFields, licenseAccountData, licenseFields } from './extract/license.js';
import { extractPayoff } from './extract/payoff.js';
import { extractRegistration } from './extract/registration.js';
import { extractTitle } from './extract/title.js';
import { bestVin, repairVin, vinCandidates, type VinRead } from './extract/vin.js';
import { vinText } from './extract/common.js';
import type { SpecResult } from './extract/run.js';
import { buildLayout, type Layout } from './layout/layout.js';
import { readPdf417 } from './read/barcode.js';
import { applyOcrPlan, decodeImage, ocrScale, planOcr, type OcrPlan } from './read/image.js';
import { ToolError } from './read/exec.js';
import { pageCount, rasterizePage, readTextLayer, type TextLayerPage } from './read/pdf.js';
import { openPdf, pageImages, pageScanImage } from './read/pdf-image.js';
import { ocrVinLine, ocrWords, type OcrOptions } from './read/tesseract.js';
import { PX_PER_PT, type Gray, type PageText, type Word } from './read/types.js';
import { sniff, type DocumentFormat } from './sniff.js';
import { readingPool } from './worker/pool.js';

interface AnalyzeOptions {
  /** Raster resolution for scanned PDF pages (default 300). */
  dpi?: number;
  /** Pages read per document (default 10); the rest are ignored with a warning. */
  maxPages?: number;
  /** Largest raster in pixels (default 40 M: a tabloid page at 300 dpi). */
  maxPixels?: number;
  /** Time limit of one poppler call (default 60 s) and of one page's OCR (default 120 s). */
  toolTimeoutMs?: number;
  ocrTimeoutMs?: number;
  /** Tesseract processes at once in this process (default: the number of cores). */
  ocrConcurrency?: number;
  signal?: AbortSignal;
  /**
   * PDFs are read in a worker thread (worker/pool.ts), so the event loop
   * stays free while a text-layer document is parsed and extracted; a PDF
   * with a page to OCR comes back and is read here. False reads everything
   * in this thread.
   */
  offThread?: boolean;
}

/** What the worker thread passes to analyzeInThisThread besides the public options. */
interface ThreadOptions extends AnalyzeOptions {
  /** Stop with NeedsOcr at the first page without a text layer (a worker must not run OCR: the OCR queue is the process's). */
  textLayerOnly?: boolean;
  /** The text layer a worker already read (a document it handed back). */
  textLayer?: TextLayerPage[];
}

/** A page of the PDF has no text layer: the document goes back to the thread that runs OCR, with the text layer read so far. */
export class NeedsOcr extends Error {
  constructor(readonly layer: TextLayerPage[]) {
    super('a page needs OCR');
    this.name = 'NeedsOcr';
  }
}

interface PageReport {
  page: number;
  source: PageText['source'];
  words: number;
  mean_conf?: number;
  rotated?: number;
  document_type: DocumentType;
  confidence: number;
  barcode?: boolean;
}

export interface DocumentAnalysis {
  format: DocumentFormat;
  document_type: DocumentType;
  confidence: number;
  pages: PageReport[];
  /** Flat extracted fields (docs/ocr.md lists them per type); '' = the document says there is none. */
  fields: Fields;
  /** What the document contributes to account data (merged by the documented rule). */
  account_data: AccountData;
  vin: VinRead | null;
  barcode: Omit<AamvaRecord, 'elements'> | null;
  warnings: string[];
  /**
   * Present when the file holds more than one document (a title, a license
   * and a payoff letter scanned into one PDF): each with the pages it spans,
   * its type and what it says. The fields above are the first document's.
   */
  documents?: DocumentPart[];
  /** Wall time of reading and of extracting, and the time each step took summed over pages (steps of different pages overlap). */
  timings_ms: { read: number; extract: number; steps: Partial<Record<Step, number>> };
}

interface DocumentPart {
  /** 1-based, in page order. */
  part: number;
  pages: number[];
  document_type: DocumentType;
  confidence: number;
  fields: Fields;
  account_data: AccountData;
  vin: VinRead | null;
  barcode: Omit<AamvaRecord, 'elements'> | null;
  warnings: string[];
}

export class DocumentRejected extends Error {
  constructor(
    message: string,
    readonly code: 'UNSUPPORTED_FORMAT' | 'UNREADABLE',
  ) {
    super(message);
    this.name = 'DocumentRejected';
  }
}

type Step = 'decode' | 'image_from_pdf' | 'rasterize' | 'prepare' | 'ocr' | 'orientation' | 'barcode' | 'vin_reread';

const defaults = (o: ThreadOptions) => ({
  steps: {} as Partial<Record<Step, number>>,
  textLayerOnly: o.textLayerOnly ?? false,
  textLayer: o.textLayer,
  dpi: o.dpi ?? 300,
  maxPages: o.maxPages ?? 10,
  maxPixels: o.maxPixels ?? 40_000_000,
  toolTimeoutMs: o.toolTimeoutMs ?? 60_000,
  ocrTimeoutMs: o.ocrTimeoutMs ?? 120_000,
  concurrency: o.ocrConcurrency,
  signal: o.signal,
});
type Opts = ReturnType<typeof defaults>;

/** Runs one step and adds its time to the document's step timings. */
async function step<T>(o: Pick<Opts, 'steps'>, name: Step, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    o.steps[name] = Math.round((o.steps[name] ?? 0) + performance.now() - t0);
  }
}

const meanConf = (p: { words: { conf: number }[] }) =>
  p.words.length ? p.words.reduce((s, w) => s + w.conf, 0) / p.words.length : 0;

async function turn(g: Gray, degrees: number): Promise<Gray> {
  const { data, info } = await sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } })
    .rotate(degrees)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Where a crop of a W x H page lies once the page is turned clockwise by `degrees` (90, 180, 270), and the turned page's size. */
function turnPlacement(
  at: { x: number; y: number },
  crop: { width: number; height: number },
  page: { width: number; height: number },
  degrees: number,
) {
  const { width: W, height: H } = page;
  if (degrees === 90) return { origin: { x: H - at.y - crop.height, y: at.x }, page: { width: H, height: W } };
  if (degrees === 180) return { origin: { x: W - at.x - crop.width, y: H - at.y - crop.height }, page };
  if (degrees === 270) return { origin: { x: at.y, y: W - at.x - crop.width }, page: { width: H, height: W } };
  return { origin: at, page };
}

/** How much readable text words are: the letters and digits of the words tesseract is fairly sure of. */
const readable = (words: readonly Word[]) =>
  words.reduce((n, w) => n + (w.conf >= 60 ? w.text.replace(/[^A-Za-z0-9]/g, '').length : 0), 0);

/**
 * The turn (90, 180, 270 degrees clockwise) that makes a page that read
 * badly upright, or 0. The page is read at each of the four turns, at half
 * size (plenty to tell text from noise, and a quarter of the work; the four
 * reads share the OCR queue's processes); a turn wins when it gives at least
 * twice the readable text of the page as it is. Tesseract's own orientation
 * detection (OSD) was unsure, or wrong, on cards and on forms of few words.
 */
async function findUpright(g: Gray, opts: OcrOptions): Promise<number> {
  const long = Math.max(g.width, g.height);
  const half =
    long > 1600
      ? await sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } })
          .resize(Math.round(g.width / 2), Math.round(g.height / 2), { kernel: 'linear' })
          .extractChannel(0)
          .raw()
          .toBuffer({ resolveWithObject: true })
          .then(({ data, info }) => ({ data, width: info.width, height: info.height }))
      : g;
  const scores = await Promise.all(
    [0, 90, 180, 270].map(async (deg) => readable(await ocrWords(deg ? await turn(half, deg) : half, opts))),
  );
  const best = [90, 180, 270].reduce((a, b) => (scores[b / 90]! > scores[a / 90]! ? b : a));
  return scores[best / 90]! >= Math.max(20, 2 * scores[0]!) ? best : 0;
}

/**
 * How a raster is to be prepared for OCR. A card is enlarged for its small
 * print (image.ts `smallPrintScale`), but a license back's barcode says all
 * its print does and its fields come from the barcode: a card whose AAMVA
 * barcode reads at its own scale is read at that scale (the enlargement
 * doubled a back's OCR time), and the barcode is kept for `pageBarcode`.
 */
export async function planPage(
  g: Gray,
  scale: number | undefined,
  o: Pick<Opts, 'steps'> = { steps: {} },
): Promise<{ plan: OcrPlan; pdf417?: string[] }> {
  const plan = await step(o, 'prepare', () => planOcr(g, scale));
  if (plan.scale <= plan.base) return { plan };
  const found = await step(o, 'barcode', () => readPdf417(plan.src));
  if (!firstAamva(found)) return { plan };
  return { plan: { ...plan, scale: plan.base }, pdf417: found };
}

/**
 * Preprocesses and OCRs one raster; turns it upright when it reads badly and
 * lies on its side. Word boxes are in the page's coordinates (300 dpi) even
 * when tesseract read only the part of the page that holds print.
 */
async function ocrPage(page: number, g: Gray, scale: number | undefined, o: Opts): Promise<PageText> {
  const { plan, pdf417 } = await planPage(g, scale, o);
  const prep = await step(o, 'prepare', () => applyOcrPlan(plan));
  const opts = { timeoutMs: o.ocrTimeoutMs, signal: o.signal, concurrency: o.concurrency };
  let raster = prep.gray;
  let place = { origin: prep.origin, page: prep.page };
  let words = await step(o, 'ocr', () => ocrWords(raster, opts));
  let rotated = prep.skew;
  if (words.length < 12 || meanConf({ words }) < 50) {
    const rot = await step(o, 'orientation', () => findUpright(raster, opts));
    if (rot) {
      const upright = await turn(raster, rot);
      const again = await step(o, 'ocr', () => ocrWords(upright, opts));
      if (again.length * meanConf({ words: again }) > words.length * meanConf({ words })) {
        place = turnPlacement(place.origin, raster, place.page, rot);
        raster = upright;
        words = again;
        rotated += rot;
      }
    }
  }
  const { x, y } = place.origin;
  if (x || y) words = words.map((w) => ({ ...w, x0: w.x0 + x, x1: w.x1 + x, y0: w.y0 + y, y1: w.y1 + y }));
  return {
    page,
    width: place.page.width,
    height: place.page.height,
    source: 'ocr',
    words,
    raster,
    origin: place.origin,
    rotated: Math.round(rotated * 10) / 10,
    mean_conf: Math.round(meanConf({ words })),
    ...(pdf417 ? { pdf417 } : {}),
  };
}

/** The PDF as pdf-lib reads it, opened once per document and only when a page needs its images. */
type PdfSource = { bytes: Buffer; doc?: ReturnType<typeof openPdf> };
const parsed = (pdf: PdfSource) => (pdf.doc ??= openPdf(pdf.bytes));

/** A page without a text layer: its scanned image taken straight from the PDF when that is all the page is, else rendered by pdftoppm. */
async function scanPage(
  pdf: PdfSource,
  index: number,
  sizePx: { width: number; height: number },
  o: Opts,
): Promise<{ gray: Gray; dpi: number }> {
  const doc = await parsed(pdf);
  const direct = doc ? await step(o, 'image_from_pdf', () => pageScanImage(doc, index, o.maxPixels)) : null;
  return (
    direct ??
    step(o, 'rasterize', () =>
      rasterizePage(pdf.bytes, index + 1, { width: sizePx.width / PX_PER_PT, height: sizePx.height / PX_PER_PT }, o),
    )
  );
}

async function readPages(
  bytes: Buffer,
  format: DocumentFormat,
  o: Opts,
  warnings: string[],
): Promise<{ pages: PageText[]; pdf?: PdfSource }> {
  if (format !== 'pdf') {
    let decoded;
    try {
      decoded = await step(o, 'decode', () => decodeImage(bytes, o.maxPixels));
    } catch (e) {
      throw new DocumentRejected(
        `the ${format === 'jpeg' ? 'JPEG' : 'PNG'} image cannot be decoded: ${(e as Error).message}`,
        'UNREADABLE',
      );
    }
    return { pages: [await ocrPage(1, decoded.gray, ocrScale(decoded.gray, decoded.density), o)] };
  }
  let layer = o.textLayer;
  try {
    layer ??= await readTextLayer(bytes, o);
  } catch (e) {
    throw new DocumentRejected(`the PDF cannot be read: ${(e as Error).message}`, 'UNREADABLE');
  }
  if (!layer.length) throw new DocumentRejected('the PDF has no pages', 'UNREADABLE');
  if (o.textLayerOnly && layer.some((lp) => !hasTextLayer(lp))) throw new NeedsOcr(layer);
  if (layer.length >= o.maxPages && (await pageCount(bytes, o).catch(() => 0)) > o.maxPages)
    warnings.push(`only the first ${o.maxPages} pages were read`);
  const pdf: PdfSource = { bytes };
  const pages = await Promise.all(
    layer.map(async (lp, i): Promise<PageText> => {
      if (hasTextLayer(lp))
        return { page: i + 1, width: lp.width, height: lp.height, source: 'text_layer', words: lp.words };
      const r = await scanPage(pdf, i, lp, o);
      return ocrPage(i + 1, r.gray, ocrScale(r.gray, r.dpi), o);
    }),
  );
  return { pages, pdf };
}

/** A page has a text layer when it holds 5 words and 20 letters and digits or more (fewer: a scan with a stamp or a page number). */
function hasTextLayer(lp: TextLayerPage): boolean {
  return lp.words.length >= 5 && lp.words.reduce((n, w) => n + w.text.replace(/[^A-Za-z0-9]/g, '').length, 0) >= 20;
}

const MAYBE_LICENSE = new Set<DocumentType>(['DRIVER_LICENSE', 'DRIVER_LICENSE_BACK', 'UNKNOWN']);

const firstAamva = (texts: string[]) => texts.map(parseAamva).find((r) => r) ?? null;

/**
 * Reads the AAMVA barcode of a page that may be a license. A text-layer
 * page is searched in the images it draws first (a barcode is usually one),
 * then rendered.
 */
async function pageBarcode(p: PageText, pdf: PdfSource | undefined, o: Opts): Promise<AamvaRecord | null> {
  if (p.pdf417) return firstAamva(p.pdf417);
  if (p.raster) return firstAamva(await readPdf417(p.raster));
  if (!pdf) return null;
  const doc = await parsed(pdf);
  for (const img of doc ? await pageImages(doc, p.page - 1, o.maxPixels) : []) {
    const rec = firstAamva(await readPdf417(img));
    if (rec) return rec;
  }
  // a text-layer page renders sharp: 200 dpi is plenty for a PDF417 there, and four times cheaper to search than 300 in a page of text
  const g = (
    await rasterizePage(
      pdf.bytes,
      p.page,
      { width: p.width / PX_PER_PT, height: p.height / PX_PER_PT },
      { ...o, dpi: Math.min(o.dpi, 200) },
    )
  ).gray;
  return firstAamva(await readPdf417(g));
}

/**
 * Reads a VIN again where one is printed (the VIN the page gave, then the
 * space right of and under each VIN label), from the page image, with
 * tesseract limited to the VIN alphabet, in a few scales and modes (the
 * LSTM model misreads a line at one size and reads it right at another).
 * The first read whose check digit holds as read wins; else the repair most
 * reads agree on; else null.
 */
async function rereadVin(
  pages: PageText[],
  regions: SpecResult['vinRegions'],
  o: Opts,
  maxCalls = 5,
): Promise<VinRead | null> {
  const reads: VinRead[] = [];
  let calls = 0;
  for (const [n, r] of regions.slice(0, 3).entries()) {
    const p = pages.find((x) => x.page === r.page);
    if (!p?.raster) continue;
    const pad = 12;
    const at = p.origin ?? { x: 0, y: 0 };
    const left = Math.max(0, Math.floor(r.box.x0 - at.x - pad));
    const top = Math.max(0, Math.floor(r.box.y0 - at.y - pad));
    const width = Math.min(p.raster.width - left, Math.ceil(r.box.x1 - r.box.x0 + 2 * pad));
    const height = Math.min(p.raster.height - top, Math.ceil(r.box.y1 - r.box.y0 + 2 * pad));
    if (width < 20 || height < 10) continue;
    const crop = await sharp(p.raster.data, { raw: { width: p.raster.width, height: p.raster.height, channels: 1 } })
      .extract({ left, top, width, height })
      .extractChannel(0)
      .raw()
      .toBuffer();
    const variants: [number, 7 | 8][] =
      n === 0
        ? [
            [1, 7],
            [1, 8],
            [1.5, 7],
          ]
        : [
            [1, 7],
            [1.5, 8],
          ];
    for (const [scale, line] of variants) {
      if (calls++ >= maxCalls) break;
      let img = sharp(crop, { raw: { width, height, channels: 1 } });
      if (scale !== 1) img = img.resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'lanczos3' });
      const { data, info } = await img
        .extend({ top: 20, bottom: 20, left: 20, right: 20, background: '#ffffff' })
        .extractChannel(0)
        .raw()
        .toBuffer({ resolveWithObject: true });
      const text = await ocrVinLine(
        { data, width: info.width, height: info.height },
        { timeoutMs: o.ocrTimeoutMs, signal: o.signal, concurrency: o.concurrency, line },
      );
      const cand = vinText(text);
      if (!cand) continue;
      const read = { ...repairVin(cand), page: r.page, box: r.box, reread: true };
      if (read.status === 'valid') return read;
      reads.push(read);
    }
  }
  // no read checks as read: the repair most reads agree on, if no other repair has as many
  const votes = new Map<string, number>();
  for (const x of reads) if (x.status === 'repaired') votes.set(x.vin, (votes.get(x.vin) ?? 0) + 1);
  const ranked = [...votes].sort((a, b) => b[1] - a[1]);
  return ranked.length && (ranked.length === 1 || ranked[0]![1] > ranked[1]![1])
    ? reads.find((x) => x.vin === ranked[0]![0])!
    : null;
}

/** What one document says: its type and the fields, account data, VIN and barcode read from its pages. */
interface Extracted {
  type: DocumentType;
  confidence: number;
  fields: Fields;
  account_data: AccountData;
  vin: VinRead | null;
  barcode: AamvaRecord | null;
  warnings: string[];
}

const FAMILY: Partial<Record<DocumentType, string>> = {
  VEHICLE_TITLE: 'title',
  VEHICLE_TITLE_BACK: 'title',
  DRIVER_LICENSE: 'license',
  DRIVER_LICENSE_BACK: 'license',
  VEHICLE_REGISTRATION: 'registration',
  PAYOFF_LETTER: 'payoff',
};
/** A page whose type's cues add up to this (a heading such as CERTIFICATE OF TITLE, DRIVER LICENSE, PAYOFF) or that holds a license barcode begins a document of its own. */
const STRONG_CUES = 6;

/**
 * The documents a file holds, as runs of pages: a title and its back, a
 * license's front and back, a letter's pages stay together; a page that
 * reads plainly as another kind of document starts the next one. A page
 * with no clear type (a letter's second page) belongs to the document
 * before it (or after it, at the start). One run for an ordinary file.
 */
export function splitDocuments(classes: readonly Classification[]): number[][] {
  const runs: { family: string; pages: number[] }[] = [];
  let leading: number[] = [];
  classes.forEach((c, i) => {
    const family = FAMILY[c.type];
    const last = runs[runs.length - 1];
    const strong = c.barcode || (c.scores[c.type] ?? 0) >= STRONG_CUES;
    if (!family || (last && last.family !== family && !strong)) {
      if (last) last.pages.push(i);
      else leading.push(i);
    } else if (last?.family === family) last.pages.push(i);
    else {
      runs.push({ family, pages: [...leading, i] });
      leading = [];
    }
  });
  return runs.length ? runs.map((r) => r.pages) : [classes.map((_, i) => i)];
}

/** Extracts one document (the pages `idx` of the file) by its type; a VIN that did not check as read is read again from the page images. */
async function extractDocument(
  idx: number[],
  pages: PageText[],
  layouts: Layout[],
  classes: Classification[],
  barcodes: (AamvaRecord | null)[],
  o: Opts,
): Promise<Extracted> {
  const doc = classifyDocument(idx.map((i) => classes[i]!));
  const of = (t: DocumentType) => idx.filter((i) => classes[i]!.type === t).map((i) => layouts[i]!);
  const barcode = idx.map((i) => barcodes[i]).find((b) => b) ?? null;
  const warnings: string[] = [];
  let fields: Fields = {};
  let account_data: AccountData = {};
  let vin: VinRead | null = null;
  let vinRegions: SpecResult['vinRegions'] = [];
  switch (doc.type) {
    case 'VEHICLE_TITLE':
      ({ fields, account_data, vin, vinRegions } = extractTitle(of('VEHICLE_TITLE')));
      break;
    case 'VEHICLE_REGISTRATION':
      ({ fields, account_data, vin, vinRegions } = extractRegistration(of('VEHICLE_REGISTRATION')));
      break;
    case 'PAYOFF_LETTER':
      ({ fields, account_data, vin, vinRegions } = extractPayoff(of('PAYOFF_LETTER')));
      break;
    case 'DRIVER_LICENSE':
    case 'DRIVER_LICENSE_BACK': {
      const front = doc.type === 'DRIVER_LICENSE' ? licenseFields(of('DRIVER_LICENSE')) : {};
      // the barcode is authoritative; the printed front fills what it lacks
      fields = barcode
        ? { ...front, ...Object.fromEntries(Object.entries(barcodeFields(barcode)).filter(([, v]) => v !== '')) }
        : front;
      account_data = licenseAccountData(fields);
      break;
    }
    default: {
      vin = bestVin(idx.flatMap((i) => vinCandidates(layouts[i]!)));
      if (vin) {
        fields = { vin: vin.vin };
        if (vin.status !== 'unverified') account_data = { vehicle: { vin: vin.vin } };
      }
    }
  }
  const mine = idx.map((i) => pages[i]!);
  if (vinRegions.length && vin?.status !== 'valid' && !vin?.certain && mine.some((p) => p.raster)) {
    // a repaired VIN gets one confirming read; one that does not check gets several
    const again = await step(o, 'vin_reread', () =>
      rereadVin(mine, vinRegions, o, vin?.status === 'repaired' ? 1 : 5),
    ).catch(() => null);
    if (again && (again.status === 'valid' || !vin || vin.status === 'unverified')) {
      vin = again;
      fields.vin = again.vin;
      account_data = { ...account_data, vehicle: { ...account_data.vehicle, vin: again.vin } };
    }
  }
  if (vin?.status === 'repaired')
    warnings.push(
      `VIN repaired from ${vin.read} (positions ${vin.changed?.join(', ')}): the check digit confirmed one candidate`,
    );
  if (vin?.status === 'unverified')
    warnings.push(
      `VIN ${vin.read} kept as read: its check digit does not match${vin.candidates ? ` and ${vin.candidates} repairs would` : ''}`,
    );
  return { type: doc.type, confidence: doc.confidence, fields, account_data, vin, barcode, warnings };
}

const barcodeReport = (b: AamvaRecord | null) => {
  if (!b) return null;
  const { elements: _e, ...rest } = b;
  return rest;
};

/**
 * Reads a document: a PDF in a worker thread (unless `offThread` is false),
 * handed back to this thread when a page needs OCR; an image here (its OCR
 * runs in tesseract processes).
 */
export async function analyzeDocument(bytes: Buffer, options: AnalyzeOptions = {}): Promise<DocumentAnalysis> {
  if (options.offThread === false || sniff(bytes).format !== 'pdf') return analyzeInThisThread(bytes, options);
  const { signal, offThread: _t, ...plain } = options;
  const answer = await readingPool<DocumentAnalysis>(options.ocrConcurrency).run({ bytes, options: plain }, signal);
  if ('ok' in answer) return answer.ok;
  if ('needsOcr' in answer) return analyzeInThisThread(bytes, { ...options, textLayer: answer.needsOcr });
  const { name, message, code } = answer.error;
  if (name === 'DocumentRejected') throw new DocumentRejected(message, code as DocumentRejected['code']);
  if (name === 'ToolError') throw new ToolError(message, code as ToolError['code']);
  throw Object.assign(new Error(message), { name });
}

/** Reads a document in this thread (the worker's entry, and every document that needs OCR). */
export async function analyzeInThisThread(bytes: Buffer, options: ThreadOptions = {}): Promise<DocumentAnalysis> {
  const o = defaults(options);
  const s = sniff(bytes);
  if (!s.format)
    throw new DocumentRejected(`the document is ${s.looksLike}, not a PDF, JPEG or PNG`, 'UNSUPPORTED_FORMAT');
  const warnings: string[] = [];
  const t0 = performance.now();
  const { pages, pdf } = await readPages(bytes, s.format, o, warnings);
  const layouts: Layout[] = pages.map((p) => buildLayout(p));
  const classes: Classification[] = [];
  const barcodes: (AamvaRecord | null)[] = [];
  for (let i = 0; i < pages.length; i++) {
    let c = classifyPage(layouts[i]!);
    // a page that reads plainly as a license front (no back cues such as RESTRICTIONS, ORGAN DONOR) has no barcode to look for
    const plainFront =
      c.type === 'DRIVER_LICENSE' && (c.scores.DRIVER_LICENSE ?? 0) >= 8 && (c.scores.DRIVER_LICENSE_BACK ?? 0) < 2;
    let rec: AamvaRecord | null = null;
    if (MAYBE_LICENSE.has(c.type) && !plainFront) {
      rec = await step(o, 'barcode', () => pageBarcode(pages[i]!, pdf, o)).catch((e: Error) => {
        warnings.push(`barcode reading failed on page ${i + 1}: ${e.message}`);
        return null;
      });
      if (rec) {
        const front = c.type === 'DRIVER_LICENSE' && (c.scores.DRIVER_LICENSE ?? 0) >= 8;
        c = { ...(front ? { ...c, confidence: 1 } : classifyPage(layouts[i]!, { aamva: true })), barcode: true };
      }
    }
    classes.push(c);
    barcodes.push(rec);
  }
  const read = performance.now() - t0;
  const runs = splitDocuments(classes);
  const docs: Extracted[] = [];
  for (const idx of runs) docs.push(await extractDocument(idx, pages, layouts, classes, barcodes, o));
  for (const p of pages) delete p.raster;
  const [first] = docs as [Extracted];
  const analysis: DocumentAnalysis = {
    format: s.format,
    document_type: first.type,
    confidence: first.confidence,
    pages: pages.map((p, i) => ({
      page: p.page,
      source: p.source,
      words: p.words.length,
      ...(p.mean_conf !== undefined ? { mean_conf: p.mean_conf } : {}),
      ...(p.rotated ? { rotated: p.rotated } : {}),
      document_type: classes[i]!.type,
      confidence: classes[i]!.confidence,
      ...(classes[i]!.barcode ? { barcode: true } : {}),
    })),
    fields: first.fields,
    account_data: first.account_data,
    vin: first.vin,
    barcode: barcodeReport(first.barcode),
    warnings: [...warnings, ...first.warnings],
    timings_ms: { read: Math.round(read), extract: Math.round(performance.now() - t0 - read), steps: o.steps },
  };
  if (docs.length > 1) {
    analysis.documents = docs.map((d, n) => ({
      part: n + 1,
      pages: runs[n]!.map((i) => pages[i]!.page),
      document_type: d.type,
      confidence: d.confidence,
      fields: d.fields,
      account_data: d.account_data,
      vin: d.vin,
      barcode: barcodeReport(d.barcode),
      warnings: d.warnings,
    }));
    analysis.warnings.push(
      `the file holds ${docs.length} documents (${analysis.documents.map((d) => `${d.document_type} on page${d.pages.length > 1 ? 's' : ''} ${d.pages.join(', ')}`).join('; ')})`,
    );
  }
  return analysis;
}
