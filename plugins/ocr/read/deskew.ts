/**
 * Skew estimation by projection profiles: on a small binarized copy of the
 * page, the angle at which dark pixels fall into the fewest, fullest rows is
 * the angle of the text lines. Coarse search over +-7 degrees, then a fine
 * one around the best; returns 0 when the page has too little ink to tell.
 */
import type { Gray } from './types.js';

function score(xs: Int32Array, ys: Int32Array, n: number, tan: number, rows: Float64Array, offset: number): number {
  rows.fill(0);
  for (let i = 0; i < n; i++) {
    const r = Math.round(ys[i]! - xs[i]! * tan) + offset;
    if (r >= 0 && r < rows.length) rows[r]! += 1;
  }
  let s = 0;
  for (let i = 1; i < rows.length; i++) {
    const d = rows[i]! - rows[i - 1]!;
    s += d * d;
  }
  return s;
}

/**
 * The gray level between ink and paper: halfway from the darkest percent of
 * the pixels to the most common level (the paper), whatever the contrast and
 * noise of the scan.
 */
export function inkThreshold(g: Gray): number {
  const hist = new Uint32Array(256);
  for (let i = 0; i < g.data.length; i++) hist[g.data[i]!]!++;
  let mode = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[mode]!) mode = v;
  let dark = 0;
  let acc = 0;
  for (; dark < 256; dark++) {
    acc += hist[dark]!;
    if (acc >= g.data.length * 0.01) break;
  }
  return Math.round(dark + (mode - dark) * 0.5);
}

/**
 * The skew of the text on `small` (a downscaled grayscale page), in degrees:
 * positive when lines fall to the right (rotate by the negative to fix).
 */
export function estimateSkew(small: Gray, threshold = inkThreshold(small)): number {
  const { data, width, height } = small;
  const maxPts = 60_000;
  let dark = 0;
  for (let i = 0; i < data.length; i++) if (data[i]! < threshold) dark++;
  if (dark < 200) return 0;
  const step = Math.max(1, Math.ceil(dark / maxPts));
  const xs = new Int32Array(Math.ceil(dark / step) + 1);
  const ys = new Int32Array(xs.length);
  let n = 0;
  let k = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[y * width + x]! < threshold && k++ % step === 0 && n < xs.length) {
        xs[n] = x;
        ys[n] = y;
        n++;
      }
    }
  }
  const offset = width;
  const rows = new Float64Array(height + 2 * width);
  const best = (from: number, to: number, by: number, start: { a: number; s: number }) => {
    let b = start;
    for (let a = from; a <= to + 1e-9; a += by) {
      const s = score(xs, ys, n, Math.tan((a * Math.PI) / 180), rows, offset);
      if (s > b.s) b = { a, s };
    }
    return b;
  };
  const coarse = best(-7, 7, 0.5, { a: 0, s: -1 });
  const fine = best(coarse.a - 0.5, coarse.a + 0.5, 0.1, coarse);
  return Math.round(fine.a * 10) / 10;
}
