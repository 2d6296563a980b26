/**
 * The engine under test for the `webhooks` suite, in its own process: stages
 * intake and webhook, workers off (nothing runs until the suite says so), an
 * organization `bench` with one webhook profile (Basic auth, subscribed to
 * `title.account_status.*`) pointing at the suite's loopback receiver.
 * Driven over IPC: `{ id, type, ... }` in, `{ id, ok, ... }` out.
 *
 *   seed {n}            creates n entries; returns their ids
 *   burst {ids, status} moves account_status of each entry to `status`, one after the other
 *   start               starts webhook delivery (dispatcher and senders); returns the time
 *   change {id, status} one account_status change; returns the time just before it
 *   counts              outbox events waiting, deliveries by status
 *   baseline {n, concurrency} n POSTs of an entry body straight through got (the same client settings), no engine work
 *
 * Environment: BENCH_DATA_DIR, BENCH_RECEIVER_URL, BENCH_LOG_LEVEL (default warn).
 */
import got from 'got';
import { Agent } from 'node:http';
import { createEngine, type TitleEntry } from '../index.js';
import type { WebhookPlugin } from '../plugins/webhook/index.js';
import { vinFor } from './lib/vin.js';

const dataDir = process.env.BENCH_DATA_DIR;
const receiverUrl = process.env.BENCH_RECEIVER_URL;
if (!dataDir || !receiverUrl) throw new Error('BENCH_DATA_DIR and BENCH_RECEIVER_URL are required');

const engine = await createEngine({
  port: 0,
  dataDir,
  stages: ['intake', 'webhook'],
  allowHosts: ['127.0.0.1'],
  workers: { enabled: false },
  log: { level: (process.env.BENCH_LOG_LEVEL ?? 'warn') as 'warn' },
});
const wh = engine.plugins.find((p) => p.name === 'webhook') as WebhookPlugin;
const org = await engine.orgs.create('bench');
const p = await engine.principalFor(org.name);
await wh.setProfile(org.name, {
  url: `${receiverUrl}/hook`,
  events: ['title.account_status.*'],
  auth: { scheme: 'basic', username: 'bench', password: 'bench-password' },
});

type Msg = { id: number; type: string; [k: string]: unknown };
const handlers: Record<string, (m: Msg) => Promise<Record<string, unknown>>> = {
  async seed(m) {
    const ids: string[] = [];
    for (let i = 0; i < (m.n as number); i++)
      ids.push((await engine.service.create(p, { account_data: { vehicle: { vin: vinFor('1HGCM826', i) } } })).entryId);
    return { ids };
  },
  async burst(m) {
    const t0 = Date.now();
    for (const id of m.ids as string[]) await engine.service.setAccountStatus(p, id, m.status as string);
    return { t0, t1: Date.now() };
  },
  async start() {
    const t = Date.now();
    await wh.start();
    return { t };
  },
  async change(m) {
    const t0 = Date.now();
    await engine.service.setAccountStatus(p, m.entryId as string, m.status as string);
    return { t0, t1: Date.now() };
  },
  async counts() {
    return { counts: await wh.counts() };
  },
  async baseline(m) {
    const n = m.n as number;
    const entry = (await engine.service.get(p, m.entryId as string)) as TitleEntry;
    const body = JSON.stringify({ ...entry, webhook_events: ['title.account_status.poa_sent'] });
    const agent = new Agent({ keepAlive: true, maxSockets: m.concurrency as number });
    const client = got.extend({
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      decompress: false,
      agent: { http: agent },
      timeout: { request: 10_000 },
    });
    let next = 0;
    let ok = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: m.concurrency as number }, async () => {
        while (next++ < n) {
          const r = await client.post(`${receiverUrl}/baseline`, {
            body,
            headers: { 'content-type': 'application/json' },
          });
          if (r.statusCode < 300) ok++;
        }
      }),
    );
    const t1 = Date.now();
    agent.destroy();
    return { t0, t1, ok };
  },
};

process.on('message', (m: Msg) => {
  const h = handlers[m.type];
  if (!h) return process.send?.({ id: m.id, ok: false, error: `unknown message ${m.type}` });
  h(m).then(
    (r) => process.send?.({ id: m.id, ok: true, ...r }),
    (e: unknown) => process.send?.({ id: m.id, ok: false, error: e instanceof Error ? e.stack : String(e) }),
  );
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  try {
    await engine.stop();
  } finally {
    process.exit(0);
  }
};
process.on('SIGTERM', () => void stop());
process.on('disconnect', () => void stop());
process.send?.({ type: 'ready', port: 0, options: wh.options });
