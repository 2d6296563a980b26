/** Page previews for the signing page: PNGs rendered with poppler's pdftoppm, kept in a small cache. */
import { spawn } from 'node:child_process';

const cache = new Map<string, Buffer>();
const MAX = 200;

function remember(k: string, v: Buffer): Buffer {
  if (cache.size >= MAX) cache.delete(cache.keys().next().value!);
  cache.set(k, v);
  return v;
}

export async function pagePng(
  id: string,
  page: number,
  dpi: number,
  pdf: () => Promise<Buffer | null>,
): Promise<Buffer | null> {
  const k = `p:${id}:${page}:${dpi}`;
  const hit = cache.get(k);
  if (hit) return hit;
  const bytes = await pdf();
  if (!bytes) return null;
  const png = await new Promise<Buffer>((resolve, reject) => {
    const p = spawn(
      'pdftoppm',
      ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', '-'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => out.push(c));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`pdftoppm exited ${code}`))));
    p.stdin.end(bytes);
  });
  return remember(k, png);
}
