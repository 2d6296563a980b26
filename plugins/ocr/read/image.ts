/**
 * Images with sharp: decode (JPEG, PNG, and the rasters of PDF pages), turn
 * by the EXIF orientation, grayscale, bring to an OCR-friendly resolution,
 * stretch the contrast, and deskew when the text lines are tilted.
 */
import sharp, { type Sharp } from 'sharp';
import { estimateSkew } from './deskew.js';
import type { Gray } from './types.js';

// every raster is used once: libvips' operation cache would only keep page-sized buffers alive (a bigger process
// also forks every tool and tesseract more slowly)
sharp.cache(false);

/** Decodes an uploaded image to grayscale: EXIF orientation applied, transparency on white. */
export async function decodeImage(bytes: Buffer, maxPixels: number): Promise<{ gray: Gray; density?: number }> {
  const img = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' });
  const meta = await img.metadata();
  const { data, info } = await img.rotate().flatten({ background: '#ffffff' }).grayscale().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
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
 * The scale that brings an image to about 300 dpi: by its density when it
 * states a plausible one, else by size (a card-sized photo is enlarged, a
 * huge phone photo reduced).
 */
export function ocrScale(g: Gray, density?: number): number {
  const long = Math.max(g.width, g.height);
  if (density && density >= 100 && density <= 1200 && density !== 72) return Math.max(0.25, Math.min(2, 300 / density));
  if (long < 1400) return Math.min(2, 2000 / long);
  if (long > 4400) return 4400 / long;
  return 1;
}

export interface Prepared { gray: Gray; scale: number; skew: number; noise: number }

/** Resizes by `scale`, stretches contrast, and removes skew over 0.3 degrees. */
export async function prepareForOcr(g: Gray, scale: number): Promise<Prepared> {
  let cur = g;
  if (Math.abs(scale - 1) > 0.05) cur = await run(raw(cur).resize(Math.round(cur.width * scale), Math.round(cur.height * scale), { kernel: 'lanczos3' }));
  const smallW = Math.min(700, cur.width);
  const small = await run(raw(cur).resize(smallW, Math.round((cur.height * smallW) / cur.width), { kernel: 'linear' }));
  const skew = estimateSkew(small);
  // grainy scans (noise on the paper) lose whole text blocks in tesseract's layout analysis: a median filter keeps the strokes
  const noise = paperNoise(cur);
  if (noise > 5) cur = await run(raw(cur).median(noise > 9 ? 5 : 3));
  // stretch: the darkest ink to black, the paper (the most common level) to white; never flatten a page without contrast
  const [lo, paper] = inkAndPaper(cur);
  let img = raw(cur);
  if (paper - lo >= 24 && (lo > 8 || paper < 247)) img = img.linear(255 / (paper - lo), (-255 * lo) / (paper - lo));
  if (Math.abs(skew) >= 0.3) img = img.rotate(-skew, { background: { r: 255, g: 255, b: 255 } });
  return { gray: await run(img), scale, skew, noise: Math.round(noise * 10) / 10 };
}

/** Standard deviation of the paper's gray level (pixels within 25 levels of the most common one). */
export function paperNoise(g: Gray): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < g.data.length; i += 2) hist[g.data[i]!]!++;
  let mode = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[mode]!) mode = v;
  let n = 0;
  let s = 0;
  let s2 = 0;
  for (let v = Math.max(0, mode - 25); v <= Math.min(255, mode + 25); v++) {
    n += hist[v]!;
    s += v * hist[v]!;
    s2 += v * v * hist[v]!;
  }
  return n ? Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2)) : 0;
}

/** The ink level (the 0.5% darkest pixels) and the paper level (the most common gray, a little below it). */
function inkAndPaper(g: Gray): [number, number] {
  const hist = new Uint32Array(256);
  for (let i = 0; i < g.data.length; i += 3) hist[g.data[i]!]!++;
  const n = Math.ceil(g.data.length / 3);
  let mode = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[mode]!) mode = v;
  let acc = 0;
  let lo = 0;
  for (; lo < 256; lo++) {
    acc += hist[lo]!;
    if (acc >= n * 0.005) break;
  }
  return [lo, Math.max(lo, mode - 6)];
}

/** The raster as binary PGM, the cheapest format to hand tesseract (no compression). */
export function toPgm(g: Gray): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${g.width} ${g.height}\n255\n`, 'latin1'), g.data]);
}
