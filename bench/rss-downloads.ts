/**
 * RSS during large downloads (issue 13, item 9). Run one scenario per process:
 *   node --expose-gc dist/bench/rss-downloads.js files|fetch [MB] [concurrent] [rounds]
 * `files`: clients read a large stored object through its presigned URL
 * (GET /files/...). `fetch`: the ocr stage's DocumentFetcher downloads a large
 * document from a local server. Prints RSS before, peak while downloading, and
 * after the downloads ended (5 s idle and a GC), in MB, as one JSON line.
 */
import { createServer } from 'node:http';
import { rmSync } from 'node:fs';
import { once } from 'node:events';
import { startTestEngine } from '../test/helpers/engine.js';
import { UrlGuard } from '../core/net/url-guard.js';
import { DocumentFetcher } from '../plugins/ocr/fetch.js';

const [scenario = 'files', mbArg = '25', concArg = '20', roundsArg = '3'] = process.argv.slice(2);
const size = Number(mbArg) * 1024 * 1024;
const concurrent = Number(concArg);
const rounds = Number(roundsArg);
const mb = (n: number) => Math.round(n / 1024 / 1024);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);

async function drain(url: string): Promise<number> {
  const res = await fetch(url);
  let n = 0;
  for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) n += c.length;
  if (res.status !== 200 || n !== size) throw new Error(`GET ${url}: ${res.status}, ${n} bytes`);
  return n;
}

let before = 0;
if (scenario === 'files') {
  const t = await startTestEngine({ config: { stages: ['intake'], workers: { enabled: false } } });
  const key = 'bench/doc/original.pdf';
  await t.engine.objects.put(key, Buffer.alloc(size, 7));
  const url = t.engine.objects.presign(key, 600).replace(/^http:\/\/localhost:\d+/, t.url);
  gc();
  await sleep(500);
  before = process.memoryUsage().rss;
  peak = before;
  for (let r = 0; r < rounds; r++) await Promise.all(Array.from({ length: concurrent }, () => drain(url)));
  await sleep(5000);
  gc();
  await sleep(500);
  const after = process.memoryUsage().rss;
  await t.stop();
  report(before, after);
} else {
  const body = Buffer.alloc(size, 7);
  const server = createServer((_q, s) => {
    s.writeHead(200, { 'content-type': 'application/pdf', 'content-length': size });
    s.end(body);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/doc.pdf`;
  const fetcher = new DocumentFetcher(new UrlGuard(['127.0.0.1']), {
    maxBytes: size * 2,
    timeoutMs: 120_000,
    maxRedirects: 0,
  });
  gc();
  await sleep(500);
  before = process.memoryUsage().rss;
  peak = before;
  for (let r = 0; r < rounds; r++) {
    await Promise.all(
      Array.from({ length: concurrent }, async () => {
        const f = await fetcher.fetch(url);
        const len = 'bytes' in f ? (f as { bytes: Buffer }).bytes.length : 0;
        await (f as { dispose?: () => Promise<void> }).dispose?.();
        return len;
      }),
    );
  }
  await sleep(5000);
  gc();
  await sleep(500);
  const after = process.memoryUsage().rss;
  server.close();
  report(before, after);
}

function report(b: number, after: number): void {
  clearInterval(sampler);
  console.log(
    JSON.stringify({
      scenario,
      documentMb: mb(size),
      concurrent,
      rounds,
      rssBeforeMb: mb(b),
      rssPeakMb: mb(peak),
      rssAfterMb: mb(after),
    }),
  );
  rmSync('/nonexistent', { force: true });
}
