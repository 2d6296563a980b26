/**
 * Reads barcodes and QR codes from images with zxing-wasm, its WebAssembly
 * loaded from the installed package (never fetched from a CDN). The plugin
 * checks each QR image it stores (`qr_verified`); tests decode labels with it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReadInputBarcodeFormat } from 'zxing-wasm/reader';

let prepared = false;

function prepare(): void {
  if (prepared) return;
  const require = createRequire(import.meta.url);
  const file = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
  const bytes = readFileSync(file);
  const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  prepared = true;
}

/** The texts of the codes of `format` found in an image file (PNG, JPEG). */
export async function decodeImage(image: Buffer, format: ReadInputBarcodeFormat): Promise<string[]> {
  prepare();
  const u8 = new Uint8Array(image.buffer, image.byteOffset, image.byteLength);
  const found = await readBarcodes(u8, { formats: [format], tryHarder: true });
  return found.filter((r) => r.isValid).map((r) => r.text);
}
