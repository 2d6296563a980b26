/**
 * PDF417 (the AAMVA barcode on the back of US and Canadian licenses) with
 * zxing-wasm, the WebAssembly build of ZXing-C++, from raw pixels. The
 * .wasm file is read from node_modules: the library's default would fetch it
 * from a CDN, and the daemon must work offline.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { Gray } from './types.js';

let ready: Promise<void> | undefined;

function init(): Promise<void> {
  ready ??= (async () => {
    const path = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bin = await readFile(path);
    const wasmBinary = bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength) as ArrayBuffer;
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  return ready;
}

async function decode(g: Gray): Promise<string[]> {
  const rgba = new Uint8ClampedArray(g.width * g.height * 4);
  for (let i = 0, j = 0; i < g.data.length; i++, j += 4) {
    const v = g.data[i]!;
    rgba[j] = v;
    rgba[j + 1] = v;
    rgba[j + 2] = v;
    rgba[j + 3] = 255;
  }
  const results = await readBarcodes(
    { data: rgba, width: g.width, height: g.height, colorSpace: 'srgb' } as unknown as Parameters<
      typeof readBarcodes
    >[0],
    {
      formats: ['PDF417'],
      tryHarder: true,
      tryRotate: true,
      tryInvert: false,
      maxNumberOfSymbols: 4,
      textMode: 'Plain',
    },
  );
  return results.filter((r) => r.isValid).map((r) => Buffer.from(r.bytes).toString('latin1'));
}

/** Pixels above which a raster is searched at half size first. */
const HALF_FIRST = 2_500_000;

/**
 * Raw bytes of every PDF417 symbol found on the raster (latin1 text). A
 * large raster (a 300-dpi page) is searched at half size first: a license
 * barcode's modules are still 1.5 px or more there, the search takes a
 * fifth of the time, and a soft or noisy scan often reads better smaller;
 * the full size is searched when the half finds nothing.
 */
export async function readPdf417(g: Gray): Promise<string[]> {
  await init();
  if (g.width * g.height > HALF_FIRST) {
    const { data, info } = await sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } })
      .resize(Math.round(g.width / 2), Math.round(g.height / 2), { kernel: 'linear' })
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const half = await decode({ data, width: info.width, height: info.height });
    if (half.length) return half;
  }
  return decode(g);
}
