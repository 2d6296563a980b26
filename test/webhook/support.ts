/**
 * Real HTTP receivers on 127.0.0.1 for the webhook tests, and an engine with
 * the webhook plugin tuned for tests (short retry base, short poll).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { EngineOptions, Principal, StagePluginClass } from '../../core/index.js';
import type { WebhookPlugin } from '../../plugins/webhook/index.js';
import { eventually, startTestEngine, type Dialect, type TestEngine } from '../helpers/engine.js';

export interface Received {
  n: number;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  /** The status the receiver answered (0: it hung and was cut off). */
  status: number;
}

/** What the receiver does with request number `n` (0-based): answer `status`, or hang (never answer). */
export type Behaviour = (r: { n: number; path: string }) => { status: number; delayMs?: number } | 'hang';

export class Receiver {
  readonly requests: Received[] = [];
  behaviour: Behaviour = () => ({ status: 200 });
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly hung = new Set<ServerResponse>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Requests whose answer was 2xx. */
  get ok(): Received[] {
    return this.requests.filter((r) => r.status >= 200 && r.status < 300);
  }

  async listen(port = 0): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          /* not JSON */
        }
        const n = this.requests.length;
        const rec: Received = { n, path: req.url ?? '', headers: req.headers, raw, body, status: 0 };
        this.requests.push(rec);
        const b = this.behaviour({ n, path: rec.path });
        if (b === 'hang') {
          this.hung.add(res);
          res.on('close', () => this.hung.delete(res));
          return;
        }
        const answer = () => {
          rec.status = b.status;
          res.writeHead(b.status, { 'content-type': 'text/plain' }).end(b.status < 300 ? 'ok' : `status ${b.status}`);
        };
        if (b.delayMs) setTimeout(answer, b.delayMs);
        else answer();
      });
    });
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((res, rej) => {
      server.once('error', rej);
      server.listen(port, '127.0.0.1', () => res());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this;
  }

  /** Stops listening and cuts every open connection (hung requests included). */
  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    for (const sock of this.sockets) sock.destroy();
    if (s) await new Promise<void>((res) => s.close(() => res()));
  }

  /** The deliveries received for one entry, in arrival order. */
  forEntry(entryId: string): Received[] {
    return this.requests.filter((r) => r.body?.entryId === entryId);
  }
}

export async function receiver(behaviour?: Behaviour): Promise<Receiver> {
  const r = new Receiver();
  if (behaviour) r.behaviour = behaviour;
  return r.listen();
}

/** A receiver's own check of a Standard Webhooks signature (independent of the plugin's code). */
export function signatureValid(secret: string, headers: IncomingHttpHeaders, raw: string): boolean {
  const id = String(headers['webhook-id']);
  const ts = String(headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const want = createHmac('sha256', key).update(`${id}.${ts}.${raw}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => {
      const [v, sig] = s.split(',');
      const got = Buffer.from(sig ?? '', 'base64');
      return v === 'v1' && got.length === want.length && timingSafeEqual(got, want);
    });
}

export const FAST_WEBHOOKS = { retryBaseMs: 20, pollIntervalMs: 20, timeoutMs: 5000 };

export interface WebhookTestEngine extends TestEngine {
  wh: WebhookPlugin;
  p: Principal;
}

/** An engine with intake, the given stages and webhook, allowHosts 127.0.0.1. */
export async function startWebhookEngine(
  o: {
    dialect?: Dialect;
    stages?: Record<string, StagePluginClass>;
    webhook?: Record<string, unknown>;
    config?: Record<string, unknown>;
    options?: EngineOptions;
    dataDir?: string;
    schema?: string;
    listen?: boolean;
  } = {},
): Promise<WebhookTestEngine> {
  const extra = Object.keys(o.stages ?? {});
  const t = await startTestEngine({
    dialect: o.dialect,
    dataDir: o.dataDir,
    schema: o.schema,
    listen: o.listen,
    config: {
      stages: ['intake', ...extra, 'webhook'],
      allowHosts: ['127.0.0.1'],
      plugins: { webhook: { ...FAST_WEBHOOKS, ...o.webhook } },
      ...o.config,
    },
    options: { ...o.options, stages: { ...o.options?.stages, ...o.stages } },
  });
  const wh = t.engine.plugins.find((x) => x.name === 'webhook') as WebhookPlugin;
  const p = await t.engine.principalFor(t.org.name);
  return Object.assign(t, { wh, p });
}

/**
 * Waits until nothing is left to deliver: no outbox event waiting, no
 * delivery pending or in flight. Then what a receiver got is all it gets.
 */
export async function settled(wh: WebhookPlugin, what = 'webhooks settled'): Promise<void> {
  await eventually(
    async () => {
      const c = await wh.counts();
      return c.undispatched === 0 && !c.pending && !c.delivering;
    },
    { what, tries: 4000 },
  );
}

/** Waits until the entry's job_status is `status` and its webhooks settled. */
export async function jobEnded(t: WebhookTestEngine, entryId: string, status = 'complete'): Promise<void> {
  await eventually(async () => (await t.engine.service.get(t.p, entryId)).job_status === status, {
    what: `entry ${entryId} ${status}`,
    tries: 4000,
  });
  await settled(t.wh);
}
