/**
 * PDF417 (the AAMVA barcode on the back of US and Canadian licenses) with
 * zxing-wasm, the WebAssembly build of ZXing-C++, from raw pixels. The
 * .wasm file is read from node_modules: the library's default would fetch it
 * from a CDN, and the daemon must work offline.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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

/** Raw bytes of every PDF417 symbol found on the raster (latin1 text). */
export async function readPdf417(g: Gray): Promise<string[]> {
  await init();
  const rgba = new Uint8ClampedArray(g.width * g.height * 4);
  for (let i = 0, j = 0; i < g.data.length; i++, j += 4) {
    const v = g.data[i]!;
    rgba[j] = v;
    rgba[j + 1] = v;
    rgba[j + 2] = v;
    rgba[j + 3] = 255;
  }
  const results = await readBarcodes({ data: rgba, width: g.width, height: g.height, colorSpace: 'srgb' } as unknown as Parameters<typeof readBarcodes>[0], {
    formats: ['PDF417'], tryHarder: true, tryRotate: true, tryInvert: false, maxNumberOfSymbols: 4, textMode: 'Plain',
  });
  return results.filter((r) => r.isValid).map((r) => Buffer.from(r.bytes).toString('latin1'));
}
