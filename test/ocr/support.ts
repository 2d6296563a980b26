/**
 * What the ocr tests share: the committed corpus (test/fixtures/ocr/corpus,
 * written by the generator from ground truth) and a local file server on
 * 127.0.0.1 that serves it, plus routes that misbehave on purpose (lying
 * content types, redirect chains, oversized streams, errors).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { buildLayout, type Layout } from '../../plugins/ocr/layout/layout.js';
import type { Word } from '../../plugins/ocr/read/types.js';
import { packageRoot } from '../../core/paths.js';
import type { CorpusDoc } from '../fixtures/ocr/generator/corpus.js';

export const CORPUS_DIR = join(packageRoot, 'test', 'fixtures', 'ocr', 'corpus');
export const corpus = (): CorpusDoc[] =>
  JSON.parse(readFileSync(join(CORPUS_DIR, 'manifest.json'), 'utf8')) as CorpusDoc[];
export const corpusDoc = (id: string): CorpusDoc => {
  const d = corpus().find((x) => x.id === id);
  if (!d) throw new Error(`no corpus document ${id}`);
  return d;
};
export const corpusBytes = (d: CorpusDoc): Buffer => readFileSync(join(CORPUS_DIR, d.file));

/** One PDF of the pages of several corpus PDFs, in order (a file holding several documents). */
export async function joinPdfs(ids: string[]): Promise<Buffer> {
  const out = await PDFDocument.create();
  for (const id of ids) {
    const src = await PDFDocument.load(corpusBytes(corpusDoc(id)));
    for (const p of await out.copyPages(src, src.getPageIndices())) out.addPage(p);
  }
  return Buffer.from(await out.save());
}

export interface FileServer {
  url: string;
  hits: string[];
  /** Answers the requests for `/held/<name>` waiting so far and from now on. */
  release(name: string): void;
  /** Serves `bytes` at `/files/<name>` (a file the test made) and returns its URL. */
  add(name: string, bytes: Buffer): string;
  close(): Promise<void>;
}

/**
 * Routes: `/files/<name>` a corpus file (served as application/octet-stream
 * whatever it is: the stage must sniff); `/html.pdf` an HTML page served as
 * application/pdf; `/redirect/<n>/<name>` n redirects, then the file;
 * `/to/<url>` one redirect to an arbitrary URL; `/stream/<bytes>` a chunked
 * body of that many bytes without Content-Length; `/status/<code>`;
 * `/held/<name>` the corpus file once the test calls `release(name)`.
 */
export async function startFileServer(): Promise<FileServer> {
  const hits: string[] = [];
  const released = new Set<string>();
  const added = new Map<string, Buffer>();
  const holding = new Map<string, (() => void)[]>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    hits.push(path);
    const m = (re: RegExp) => re.exec(path);
    let r: RegExpExecArray | null;
    if ((r = m(/^\/held\/([\w.-]+)$/))) {
      const name = r[1]!;
      const serve = () => {
        const body = readFileSync(join(CORPUS_DIR, name));
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
        res.end(body);
      };
      if (released.has(name)) return serve();
      holding.set(name, [...(holding.get(name) ?? []), serve]);
      return;
    }
    if ((r = m(/^\/files\/([\w.-]+)$/))) {
      try {
        const body = added.get(r[1]!) ?? readFileSync(join(CORPUS_DIR, r[1]!));
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
        return res.end(body);
      } catch {
        res.writeHead(404).end();
        return;
      }
    }
    if (path === '/html.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(
        '<!DOCTYPE html><html><head><title>Sign in</title></head><body>Please sign in to download this file.</body></html>',
      );
    }
    if ((r = m(/^\/redirect\/(\d+)\/([\w.-]+)$/))) {
      const n = Number(r[1]);
      res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}/${r[2]}` : `/files/${r[2]}` });
      return res.end();
    }
    if ((r = m(/^\/to\/(.+)$/))) {
      res.writeHead(302, { location: r[1]! });
      return res.end();
    }
    if ((r = m(/^\/stream\/(\d+)$/))) {
      let left = Number(r[1]);
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('%PDF-1.7\n');
      const chunk = Buffer.alloc(16384, 0x20);
      const push = () => {
        while (left > 0) {
          const n = Math.min(left, chunk.length);
          left -= n;
          if (!res.write(chunk.subarray(0, n))) return void res.once('drain', push);
        }
        res.end();
      };
      res.on('error', () => undefined);
      return push();
    }
    if ((r = m(/^\/status\/(\d{3})$/))) {
      res.writeHead(Number(r[1])).end();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    add: (name, bytes) => {
      added.set(name, bytes);
      return `http://127.0.0.1:${port}/files/${name}`;
    },
    release: (name) => {
      released.add(name);
      for (const serve of holding.get(name) ?? []) serve();
      holding.delete(name);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Synthetic word boxes for layout tests: `w` a word at (x, y), `h` high and
 * about `width` x h wide per letter; `line` the words of a phrase starting at
 * x, `gap` x h apart; `page` their layout on a page (300 dpi letter by default).
 */
export function wordBoxes(o: { width: number; gap: number }) {
  const w = (text: string, x: number, y: number, h = 30, conf = 95): Word => ({
    text,
    x0: x,
    y0: y,
    x1: x + text.length * h * o.width,
    y1: y + h,
    conf,
  });
  const line = (text: string, x: number, y: number, h = 30, conf = 95): Word[] => {
    const out: Word[] = [];
    let cx = x;
    for (const t of text.split(' ')) {
      const word = w(t, cx, y, h, conf);
      out.push(word);
      cx = word.x1 + h * o.gap;
    }
    return out;
  };
  const page = (words: Word[], width = 2550, height = 3300): Layout => buildLayout({ width, height, words });
  return { w, line, page };
}
