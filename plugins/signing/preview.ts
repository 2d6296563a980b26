/** Page previews for the signing page: PNGs rendered with poppler's pdftoppm, kept in a small cache. */
import { spawn } from 'node:child_process';
import { PDFDocument } from 'pdf-lib';

const cache = new Map<string, Buffer | number>();
const MAX = 200;

function remember<T extends Buffer | number>(k: string, v: T): T {
  if (cache.size >= MAX) cache.delete(cache.keys().next().value!);
  cache.set(k, v);
  return v;
}

export async function pageCount(id: string, pdf: () => Promise<Buffer | null>): Promise<number> {
  const hit = cache.get(`n:${id}`);
  if (typeof hit === 'number') return hit;
  const bytes = await pdf();
  if (!bytes) return 0;
  return remember(`n:${id}`, (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount());
}

export async function pagePng(id: string, page: number, dpi: number, pdf: () => Promise<Buffer | null>): Promise<Buffer | null> {
  const k = `p:${id}:${page}:${dpi}`;
  const hit = cache.get(k);
  if (Buffer.isBuffer(hit)) return hit;
  const bytes = await pdf();
  if (!bytes) return null;
  const png = await new Promise<Buffer>((resolve, reject) => {
    const p = spawn('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => out.push(c));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`pdftoppm exited ${code}`))));
    p.stdin.end(bytes);
  });
  return remember(k, png);
}
