import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { startChild, type Child } from '../lib/proc.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';

const CONCURRENCY = 32;
/** The issue's figure for this machine (reported; the asserted target is the ratio to bare got, see README). */
const ISSUE_TARGET_PER_S = 500;

interface Arrival {
  at: number;
  entryId: string;
  events: string[];
}

/** The loopback receiver: answers 200 at once and notes when each delivery arrived. */
async function startReceiver(): Promise<{
  url: string;
  arrivals: Arrival[];
  baseline: () => number;
  onArrival: (fn: ((a: Arrival) => void) | null) => void;
  close: () => Promise<void>;
}> {
  const arrivals: Arrival[] = [];
  let baseline = 0;
  let listener: ((a: Arrival) => void) | null = null;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      if (req.url === '/baseline') baseline++;
      else {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          entryId: string;
          webhook_events: string[];
        };
        const a = { at, entryId: body.entryId, events: body.webhook_events };
        arrivals.push(a);
        listener?.(a);
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    arrivals,
    baseline: () => baseline,
    onArrival: (fn) => (listener = fn),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Request/response over the child's IPC channel. */
export function rpc(child: Child<Record<string, unknown>>) {
  let next = 1;
  const waiting = new Map<number, { res: (v: any) => void; rej: (e: Error) => void }>();
  child.proc.on('message', (m: { id?: number; ok?: boolean; error?: string }) => {
    const w = m.id ? waiting.get(m.id) : undefined;
    if (!w) return;
    waiting.delete(m.id!);
    if (m.ok) w.res(m);
    else w.rej(new Error(m.error ?? 'failed'));
  });
  return <T = any>(type: string, args: Record<string, unknown> = {}): Promise<T> =>
    new Promise((res, rej) => {
      const id = next++;
      waiting.set(id, { res, rej });
      child.proc.send({ id, type, ...args });
    });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

/**
 * Webhook delivery: how many deliveries per second leave the outbox for a
 * loopback receiver (events queued first, then delivery started), against
 * bare got POSTs of the same body at the same concurrency; and the time from
 * an account_status change to its delivery (median, p99) on an idle engine.
 */
export const webhooks: Suite = {
  name: 'webhooks',
  description: 'webhook deliveries/s to a loopback receiver vs bare got, state change -> delivery latency',
  async run(ctx: SuiteContext): Promise<Metric[]> {
    const n = Math.max(500, Math.round(4000 * ctx.scale));
    const samples = Math.max(50, Math.round(300 * ctx.scale));
    const receiver = await startReceiver();
    const dir = ctx.tmpDir('titled-bench-webhooks-');
    const child = await startChild<Record<string, unknown>>(join(ctx.benchDir, 'webhook-daemon.js'), {
      env: { BENCH_DATA_DIR: dir, BENCH_RECEIVER_URL: receiver.url },
      execArgv: ctx.execArgv,
      timeoutMs: 60_000,
    });
    const call = rpc(child);
    try {
      ctx.log(`seeding ${n} entries; queuing one account_status change each (delivery not started)`);
      const { ids } = await call<{ ids: string[] }>('seed', { n });
      const burst = await call<{ t0: number; t1: number }>('burst', { ids, status: 'poa_sent' });

      ctx.log(`bare got: ${n} POSTs of an entry body, ${CONCURRENCY} in flight`);
      const base = await call<{ t0: number; t1: number; ok: number }>('baseline', {
        n,
        concurrency: CONCURRENCY,
        entryId: ids[0],
      });
      if (base.ok !== n) throw new Error(`baseline: ${base.ok} of ${n} answered 2xx`);
      const basePerS = n / ((base.t1 - base.t0) / 1000);

      ctx.log(`delivering the ${n} queued events`);
      const done = new Promise<number>((res) =>
        receiver.onArrival(() => {
          if (receiver.arrivals.length >= n) res(receiver.arrivals[receiver.arrivals.length - 1]!.at);
        }),
      );
      const { t: startedAt } = await call<{ t: number }>('start');
      const lastAt = await done;
      receiver.onArrival(null);
      const distinct = new Set(receiver.arrivals.map((a) => a.entryId)).size;
      if (distinct !== n) throw new Error(`${distinct} of ${n} entries delivered`);
      const perS = n / ((lastAt - startedAt) / 1000);

      ctx.log(`state change -> delivery latency, ${samples} changes one at a time`);
      const latencies: number[] = [];
      for (let i = 0; i < samples; i++) {
        const entryId = ids[i % ids.length]!;
        const arrived = new Promise<number>((res) =>
          receiver.onArrival((a) => {
            if (a.entryId === entryId && a.events.includes('title.account_status.poa_signed')) res(a.at);
          }),
        );
        const { t0 } = await call<{ t0: number }>('change', { entryId, status: 'poa_signed' });
        latencies.push((await arrived) - t0);
      }
      receiver.onArrival(null);
      const counts = (await call<{ counts: Record<string, number> }>('counts')).counts;
      const sorted = [...latencies].sort((a, b) => a - b);
      const median = pct(sorted, 50);
      const p99 = pct(sorted, 99);
      return [
        {
          name: 'webhook_deliveries_per_s',
          label: `webhook deliveries/s, ${n} queued events, loopback receiver`,
          value: perS,
          unit: 'deliveries/s',
          baseline: { label: `bare got POSTs, ${CONCURRENCY} in flight`, value: basePerS },
          target: { op: '>=', value: 0.5, on: 'ratio' },
          detail: {
            events: n,
            seconds: (lastAt - startedAt) / 1000,
            concurrency: CONCURRENCY,
            issue_target_per_s: ISSUE_TARGET_PER_S,
            meets_issue_target: perS >= ISSUE_TARGET_PER_S,
            queueing_changes_per_s: n / ((burst.t1 - burst.t0) / 1000),
            note: 'includes outbox dispatch; each delivery loads and presigns the entry and signs the body',
            final_counts: counts,
          },
        },
        {
          name: 'webhook_latency_median_ms',
          label: 'account_status change -> delivery, median (idle engine)',
          value: median,
          unit: 'ms',
          detail: {
            samples,
            p90_ms: pct(sorted, 90),
            p99_ms: p99,
            max_ms: sorted[sorted.length - 1],
            min_ms: sorted[0],
          },
        },
        {
          name: 'webhook_latency_p99_ms',
          label: 'account_status change -> delivery, p99 (idle engine)',
          value: p99,
          unit: 'ms',
          detail: { samples },
        },
      ];
    } finally {
      await child.stop();
      await receiver.close();
    }
  },
};
