/**
 * Images with sharp: decode (JPEG, PNG, and the rasters of PDF pages), turn
 * by the EXIF orientation, grayscale, bring to an OCR-friendly resolution,
 * stretch the contrast, and deskew when the text lines are tilted.
 */
import sharp, { type Sharp } from 'sharp';
import { estimateSkew, inkThreshold } from './deskew.js';
import type { Gray } from './types.js';

// every raster is used once: libvips' operation cache would only keep page-sized buffers alive (a bigger process
// also forks every tool and tesseract more slowly)
sharp.cache(false);

/** Decodes an uploaded image to grayscale: EXIF orientation applied, transparency on white. */
export async function decodeImage(bytes: Buffer, maxPixels: number): Promise<{ gray: Gray; density?: number }> {
  const img = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' });
  const meta = await img.metadata();
  const { data, info } = await img
    .rotate()
    .flatten({ background: '#ffffff' })
    .grayscale()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { gray: toOneChannel(data, info.width, info.height, info.channels), density: meta.density };
}

function toOneChannel(data: Buffer, width: number, height: number, channels: number): Gray {
  if (channels === 1) return { data, width, height };
  const out = Buffer.alloc(width * height);
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels]!;
  return { data: out, width, height };
}

const raw = (g: Gray) => sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } });

async function run(img: Sharp): Promise<Gray> {
  // sharp widens a one-channel raster to three in most operations: take the first channel back before the copy out
  const { data, info } = await img.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return toOneChannel(data, info.width, info.height, info.channels);
}

/**
 * The scale that brings an image to about 300 dpi by the resolution it
 * states, when it states a plausible one (72 is a camera's or an editor's
 * default, not a measurement); a huge image is reduced whatever it states.
 * Undefined when the image gives no usable resolution: prepareForOcr then
 * scales by the size of the text it finds.
 */
export function ocrScale(g: Gray, density?: number): number | undefined {
  const long = Math.max(g.width, g.height);
  if (density && density >= 100 && density <= 1200 && density !== 72) return Math.max(0.25, Math.min(2, 300 / density));
  if (long > 4400) return 4400 / long;
  return undefined;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What the ink on `small` (a downscaled copy, `factor` of the full size)
 * says about the page, measured at full size: the typical character height
 * (the median height of the dark connected components shaped like glyphs;
 * null when there are too few to tell) and the box around everything
 * printed (null when the page is blank). Specks, and large shapes touching
 * the image's edge (a scanner's dark border, a shadow), are left out.
 */
function surveyInk(
  small: Gray,
  factor: number,
  threshold: number,
): { glyph: number | null; content: Box | null; heights: number[] } {
  const { data, width, height } = small;
  const label = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const heights: number[] = [];
  let bx0 = width;
  let by0 = height;
  let bx1 = -1;
  let by1 = -1;
  for (let start = 0; start < data.length; start++) {
    if (label[start] || data[start]! >= threshold) continue;
    let top = 0;
    stack[top++] = start;
    label[start] = 1;
    let y0 = height;
    let y1 = -1;
    let x0 = width;
    let x1 = -1;
    let area = 0;
    while (top) {
      const i = stack[--top]!;
      const x = i % width;
      const y = (i - x) / width;
      area++;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (x > 0 && !label[i - 1] && data[i - 1]! < threshold) ((label[i - 1] = 1), (stack[top++] = i - 1));
      if (x < width - 1 && !label[i + 1] && data[i + 1]! < threshold) ((label[i + 1] = 1), (stack[top++] = i + 1));
      if (y > 0 && !label[i - width] && data[i - width]! < threshold)
        ((label[i - width] = 1), (stack[top++] = i - width));
      if (y < height - 1 && !label[i + width] && data[i + width]! < threshold)
        ((label[i + width] = 1), (stack[top++] = i + width));
    }
    const h = y1 - y0 + 1;
    const w = x1 - x0 + 1;
    if (area < 4) continue;
    const edge = x0 === 0 || y0 === 0 || x1 === width - 1 || y1 === height - 1;
    if (edge && (w > width / 2 || h > height / 2)) continue;
    if (x0 < bx0) bx0 = x0;
    if (y0 < by0) by0 = y0;
    if (x1 > bx1) bx1 = x1;
    if (y1 > by1) by1 = y1;
    // a glyph (or a few run together): taller than a speck, not a rule, a box or a picture
    if (h >= 3 && area >= 6 && h <= height / 8 && w <= h * 6 && area >= 0.1 * w * h) heights.push(h);
  }
  heights.sort((a, b) => a - b);
  const glyph = heights.length >= 20 ? heights[Math.floor(heights.length / 2)]! / factor : null;
  const content =
    bx1 < 0
      ? null
      : { x: bx0 / factor, y: by0 / factor, width: (bx1 - bx0 + 1) / factor, height: (by1 - by0 + 1) / factor };
  return { glyph, content, heights: heights.map((h) => h / factor) };
}

/** Glyph height below which an image of unknown resolution is enlarged (tesseract loses small print under about 20 px). */
const SMALL_GLYPH = 18;

/**
 * Small print: the smallest labels of a card (4.5-5 pt: about 13 px of
 * capital height at 300 dpi) lose their one-letter values (a SEX of M) in
 * tesseract, even where the median glyph is big enough. The smallest print
 * is the 10th percentile of the glyph heights; under SMALL_PRINT it is
 * enlarged to SMALL_PRINT_TO, when the area read stays under
 * SMALL_PRINT_AREA once enlarged (a card, a card cropped from a page: a
 * full page's fine print is left alone, where enlarging would double the
 * OCR time of every page).
 */
const SMALL_PRINT = 15;
const SMALL_PRINT_TO = 20;
const SMALL_PRINT_AREA = 4_000_000;
/**
 * On a grainy page (GRAINY) the smallest "glyphs" may be grain, and grain enlarged twice passes the median filter
 * for print: tesseract then read thousands of specks (a degraded card of the bench took 75 s instead of 0.3 s and
 * lost every field). Enlarged at most this much there, the cards keep their small print (the held-out SEX) and
 * the grain stays grain.
 */
const GRAINY_MAX_UP = 1.5;
/** Paper noise (standard deviation of the paper's gray level) above which a page is grainy: it is median-filtered. */
const GRAINY = 5;

/** The scale that brings the smallest print to a size tesseract reads well, or `scale` when it is large enough or the area too big. */
export function smallPrintScale(heights: readonly number[], scale: number, area: number, grainy = false): number {
  if (heights.length < 20) return scale;
  const fine = heights[Math.floor(0.1 * (heights.length - 1))]! * scale;
  if (fine >= SMALL_PRINT) return scale;
  const up = Math.min(2 / scale, grainy ? GRAINY_MAX_UP : Infinity, SMALL_PRINT_TO / fine);
  return up > 1.05 && area * (scale * up) ** 2 <= SMALL_PRINT_AREA ? scale * up : scale;
}

/** A page whose print covers less than this share of it is cropped to the print before OCR. */
const CROP_BELOW = 0.6;

interface Prepared {
  /** The raster tesseract reads: the page, or the part of it that holds print. */
  gray: Gray;
  /** Where `gray` sits on the page, and the page's size, in the scaled page's pixels. */
  origin: { x: number; y: number };
  page: { width: number; height: number };
  scale: number;
  skew: number;
  noise: number;
  glyph_px?: number;
}

/** Histogram of every other pixel. */
function histogram(g: Gray): Uint32Array {
  const hist = new Uint32Array(256);
  for (let i = 0; i < g.data.length; i += 2) hist[g.data[i]!]!++;
  return hist;
}

/** A rectangle of a raster (whole pixels, clamped to it). */
function cropGray(g: Gray, b: Box): Gray {
  const x = Math.max(0, Math.floor(b.x));
  const y = Math.max(0, Math.floor(b.y));
  const width = Math.min(g.width - x, Math.ceil(b.width));
  const height = Math.min(g.height - y, Math.ceil(b.height));
  const data = Buffer.allocUnsafe(width * height);
  for (let r = 0; r < height; r++) g.data.copy(data, r * width, (y + r) * g.width + x, (y + r) * g.width + x + width);
  return { data, width, height };
}

/**
 * Brings a page to what tesseract reads best, doing only what the page
 * needs, in one pass over its pixels: crops to the print when the print
 * covers little of the page (a license scanned on a letter-size sheet:
 * tesseract's layout analysis of blank paper costs as much as reading the
 * card), resizes by `scale` (or, when the resolution is unknown, so that
 * small print is at least about 20 px tall), removes paper grain with a
 * median filter, stretches the contrast of a washed-out page, and removes
 * skew over 0.3 degrees. A clean, straight, 300-dpi page full of print is
 * passed on untouched: tesseract binarizes and normalizes each line
 * itself, so a stretch of a page with good contrast buys nothing.
 */
export async function prepareForOcr(g: Gray, scale: number | undefined): Promise<Prepared> {
  return applyOcrPlan(await planOcr(g, scale));
}

/** What preparing a page will do, decided from a small copy of it; `scale` may still be lowered to `base` before it is applied. */
export interface OcrPlan {
  /** The part of the page read (the print and a margin, or the whole page), at the page's own scale. */
  src: Gray;
  /** Where `src` sits on the page, and the page's size, at the page's own scale. */
  at: { x: number; y: number };
  size: { width: number; height: number };
  scale: number;
  /** The scale before the enlargement for small print (equal to `scale` when there is none). */
  base: number;
  skew: number;
  noise: number;
  ink: number;
  paper: number;
  glyph: number | null;
}

/** Surveys a page (skew, print, grain, contrast, glyph sizes) and decides its crop and scale; the pixels are not touched. */
export async function planOcr(g: Gray, scale: number | undefined): Promise<OcrPlan> {
  const smallW = Math.min(700, g.width);
  const factor = smallW / g.width;
  const small = await run(raw(g).resize(smallW, Math.max(1, Math.round(g.height * factor)), { kernel: 'linear' }));
  const threshold = inkThreshold(small);
  const skew = estimateSkew(small, threshold);
  const ink = surveyInk(small, factor, threshold);
  if (scale === undefined) {
    if (ink.glyph !== null) scale = ink.glyph < SMALL_GLYPH ? Math.min(2, (SMALL_GLYPH + 4) / ink.glyph) : 1;
    else scale = Math.max(g.width, g.height) < 1400 ? Math.min(2, 2000 / Math.max(g.width, g.height)) : 1;
  }
  let src = g;
  let at = { x: 0, y: 0 };
  const c = ink.content;
  if (c && c.width * c.height < CROP_BELOW * g.width * g.height) {
    const margin = Math.max(40, 0.03 * Math.max(g.width, g.height));
    at = { x: Math.max(0, Math.floor(c.x - margin)), y: Math.max(0, Math.floor(c.y - margin)) };
    src = cropGray(g, {
      ...at,
      width: Math.min(g.width - at.x, c.width + 2 * margin),
      height: Math.min(g.height - at.y, c.height + 2 * margin),
    });
  }
  // measured on the whole page, so a crop changes nothing but the area read (a card's tinted background is not paper grain)
  const hist = histogram(g);
  // grainy scans (noise on the paper) lose whole text blocks in tesseract's layout analysis: a median filter keeps the strokes
  const noise = paperNoise(hist);
  const [lo, paper] = inkAndPaper(hist);
  return {
    src,
    at,
    size: { width: g.width, height: g.height },
    scale: smallPrintScale(ink.heights, scale, src.width * src.height, noise > GRAINY),
    base: scale,
    skew,
    noise,
    ink: lo,
    paper,
    glyph: ink.glyph,
  };
}

/** Crops, resizes, denoises, stretches and straightens a page as its plan says, doing only what the plan needs. */
export async function applyOcrPlan(plan: OcrPlan): Promise<Prepared> {
  const { src, scale, skew, noise, ink: lo, paper } = plan;
  const origin = { x: Math.round(plan.at.x * scale), y: Math.round(plan.at.y * scale) };
  const resize = Math.abs(scale - 1) > 0.05;
  const median = noise > GRAINY ? (noise > 9 ? 5 : 3) : 0;
  // stretch only a washed-out page: grey ink on grey paper (the darkest ink to black, the paper to white)
  const stretch = paper - lo >= 24 && paper - lo < 150;
  const rotate = Math.abs(skew) >= 0.3;
  const report = {
    origin,
    page: { width: Math.round(plan.size.width * scale), height: Math.round(plan.size.height * scale) },
    scale,
    skew,
    noise: Math.round(noise * 10) / 10,
    ...(plan.glyph !== null ? { glyph_px: Math.round(plan.glyph) } : {}),
  };
  if (!resize && !median && !stretch && !rotate) return { gray: src, ...report };
  let img = raw(src);
  if (resize) img = img.resize(Math.round(src.width * scale), Math.round(src.height * scale), { kernel: 'lanczos3' });
  if (median) img = img.median(median);
  if (stretch) img = img.linear(255 / (paper - lo), (-255 * lo) / (paper - lo));
  if (rotate) img = img.rotate(-skew, { background: { r: 255, g: 255, b: 255 } });
  const gray = await run(img);
  // a turn by a small angle grows the canvas around the centre: the raster's corner moves up and left by half the growth
  const grewX = gray.width - Math.round(src.width * (resize ? scale : 1));
  const grewY = gray.height - Math.round(src.height * (resize ? scale : 1));
  return { gray, ...report, origin: { x: origin.x - Math.round(grewX / 2), y: origin.y - Math.round(grewY / 2) } };
}

/** The most common gray level of a histogram. */
function mode(hist: Uint32Array): number {
  let m = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[m]!) m = v;
  return m;
}

/** Standard deviation of the paper's gray level (pixels within 25 levels of the most common one). */
function paperNoise(hist: Uint32Array): number {
  const m = mode(hist);
  let n = 0;
  let s = 0;
  let s2 = 0;
  for (let v = Math.max(0, m - 25); v <= Math.min(255, m + 25); v++) {
    n += hist[v]!;
    s += v * hist[v]!;
    s2 += v * v * hist[v]!;
  }
  return n ? Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2)) : 0;
}

/** The ink level (the 0.5% darkest pixels) and the paper level (the most common gray, a little below it). */
function inkAndPaper(hist: Uint32Array): [number, number] {
  const n = hist.reduce((a, b) => a + b, 0);
  let acc = 0;
  let lo = 0;
  for (; lo < 256; lo++) {
    acc += hist[lo]!;
    if (acc >= n * 0.005) break;
  }
  return [lo, Math.max(lo, mode(hist) - 6)];
}

/** The header of a raster as binary PGM, the cheapest format to hand tesseract (no compression). */
export function pgmHeader(g: Gray): Buffer {
  return Buffer.from(`P5\n${g.width} ${g.height}\n255\n`, 'latin1');
}
