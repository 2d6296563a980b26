/**
 * Shared pieces of the enrichment suites: an engine with the enrichment
 * stages and an injected clock, VINs that pick sandbox outcomes and
 * scenarios, waiting for a job, downloading presigned files, the outbox, and
 * a local gateway (HTTP server on 127.0.0.1) for the http providers.
 */
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { computeCheckDigit } from '../../core/index.js';
import { CLOCK, type Clock } from '../../plugins/enrichment/common/provider.js';
import { eventually, startTestEngine, type Dialect, type TestEngine } from '../helpers/engine.js';

export const ENRICHMENT_STAGES = [
  'intake',
  'vin-decode',
  'nmvtis',
  'public-dmv',
  'private-portal',
  'insurance',
  'account-facts',
];
/** A Wednesday afternoon: outside every NMVTIS maintenance window. */
export const QUIET_TIME = new Date('2026-03-04T15:00:00Z');

/** A clock tests move by hand. */
export class TestClock implements Clock {
  constructor(public at: Date = QUIET_TIME) {}
  now(): Date {
    return new Date(this.at);
  }
}

export interface EnrichmentEngine extends TestEngine {
  clock: TestClock;
}

export async function startEnrichmentEngine(
  o: { dialect?: Dialect; config?: Record<string, unknown>; stages?: string[] } = {},
): Promise<EnrichmentEngine> {
  const t = await startTestEngine({
    dialect: o.dialect,
    config: { stages: o.stages ?? ENRICHMENT_STAGES, ...o.config },
  });
  const clock = new TestClock();
  t.engine.container.registerInstance(CLOCK, clock);
  return Object.assign(t, { clock });
}

/**
 * A 2020 Honda VIN (`1HGCV1F3?LA` + serial) with a correct check digit. The
 * serial's last character picks the sandbox outcome (0 not_found, 8 error,
 * 9 unavailable), its 5th the scenario, its 4th insurance (9 lapsed).
 */
export function sandboxVin(serial: string, prefix = '1HGCV1F3', year = 'L', plant = 'A'): string {
  if (serial.length !== 6) throw new Error('serial must be 6 characters');
  const draft = `${prefix}0${year}${plant}${serial}`;
  return `${prefix}${computeCheckDigit(draft)}${year}${plant}${serial}`;
}

let counter = 0;
/**
 * A fresh sandbox VIN: serial = 3-digit counter, then the insurance digit (9
 * lapsed), the scenario digit (docs/sandbox.md; 0 = the default history) and
 * the outcome digit (1 found, 0 not_found, 8 error, 9 unavailable).
 */
export function vin(
  o: {
    outcome?: 'found' | 'not_found' | 'error' | 'unavailable';
    scenario?: string;
    lapsed?: boolean;
    prefix?: string;
  } = {},
): string {
  const n = counter++;
  const last = { found: '1', not_found: '0', error: '8', unavailable: '9' }[o.outcome ?? 'found'];
  const plant = 'ABCDEFGHJKLMNPRSTUVWXYZ'[Math.floor(n / 1000) % 23]!;
  return sandboxVin(
    `${String(n % 1000).padStart(3, '0')}${o.lapsed ? '9' : '1'}${o.scenario ?? '0'}${last}`,
    o.prefix,
    'L',
    plant,
  );
}

export const BORROWER = {
  type: 'PERSON',
  name: 'Jane Q. Doe',
  addr: { street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' },
};

export async function create(t: TestEngine, body: Record<string, unknown>): Promise<string> {
  const r = await t.request('POST', '/title', { body });
  expect(r.status, JSON.stringify(r.body)).to.equal(200);
  return r.body.entryId as string;
}

/** Waits until the entry's job finished (complete or error) and returns the entry as GET shows it. */
export async function settled(t: TestEngine, id: string, what = 'job finished'): Promise<any> {
  return eventually(
    async () => {
      const r = await t.request('GET', `/title/${id}`);
      const js = r.body?.job_status;
      if (js !== 'complete' && js !== 'error') return null;
      // no queued job left for the entry (a request may have queued another)
      const queued = await t.engine.db.query<{ n: number }>(
        'SELECT COUNT(*) AS n FROM jobs WHERE "entryId" = ? AND status IN (?, ?)',
        [r.body.entryId, 'queued', 'running'],
      );
      return Number(queued[0]!.n) === 0 ? r.body : null;
    },
    { what, tries: 800 },
  );
}

/** Names of the entry's outbox events, oldest first. */
export async function events(t: TestEngine, id: string): Promise<string[]> {
  return (await t.engine.outbox.forEntry(id)).map((e) => e.name);
}

export async function download(url: string): Promise<{ status: number; body: Buffer; type: string | null }> {
  expect(url, 'a presigned URL').to.match(/^http:\/\/.+\/files\/.+\?expires=\d+&signature=[0-9a-f]{64}$/);
  const res = await fetch(url);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

export const isPdf = (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-';
export const isPng = (b: Buffer) =>
  b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

/** One request the gateway received. */
export interface GatewayCall {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}
export type GatewayAnswer = {
  status?: number;
  json?: unknown;
  text?: string;
  delayMs?: number;
  headers?: Record<string, string>;
};

/** A local HTTP server on 127.0.0.1 standing in for a lender's data gateway. */
export interface Gateway {
  url: string;
  calls: GatewayCall[];
  /** Requests in flight now, and the most seen at once. */
  inFlight: number;
  maxInFlight: number;
  handle: (call: GatewayCall, n: number) => GatewayAnswer | Promise<GatewayAnswer>;
  close(): Promise<void>;
}

export async function startGateway(handle: Gateway['handle']): Promise<Gateway> {
  const g: Gateway = { url: '', calls: [], inFlight: 0, maxInFlight: 0, handle, close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        const call: GatewayCall = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
        g.calls.push(call);
        g.inFlight++;
        g.maxInFlight = Math.max(g.maxInFlight, g.inFlight);
        try {
          const a = await g.handle(call, g.calls.length);
          if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
          if (res.destroyed) return;
          res.writeHead(a.status ?? 200, {
            'content-type': a.text !== undefined ? 'text/plain' : 'application/json',
            ...a.headers,
          });
          res.end(a.text ?? JSON.stringify(a.json ?? {}));
        } finally {
          g.inFlight--;
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  g.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  g.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return g;
}
