import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { sandboxRecord } from '../../plugins/enrichment/common/sandbox/records.js';
import { encodeGrayPng } from '../../plugins/enrichment/common/screenshot-png.js';
import { createMany, waitComplete } from '../lib/api.js';
import { startChild } from '../lib/proc.js';
import type { Metric, Suite, SuiteContext } from '../lib/types.js';
import { vinFor } from '../lib/vin.js';

const CONNECTIONS = 10;
const STAGES = 'intake,vin-decode,nmvtis,public-dmv,private-portal,insurance';
const LATENCY_MS = 50;

type DaemonReady = { port: number; key: string };

/** The n-th VIN of a stream whose sandbox outcome is `found` (serials ending 1-7). */
const foundVin = (prefix: string, i: number) => vinFor(prefix, Math.floor(i / 7) * 10 + 1 + (i % 7), 'L');

/** A create that asks for every source: NMVTIS, public, private (state record + portal); insurance runs with them. */
function enrichBody(prefix: string, i: number): string {
  const state = (['TX', 'CA', 'FL', 'NY', 'OH'] as const)[i % 5];
  return JSON.stringify({
    account_data: {
      vehicle: { vin: foundVin(prefix, i), title: { issuing_state: state } },
      loan: {
        loan_id: `LN-${prefix}-${i}`,
        borrower: [{ name: `Jane Q Doe${i}`, addr: { street1: '1 Main St', city: 'Austin', state, zip: '78701' } }],
      },
    },
    sync_nmvtis: true,
    sync_public: true,
    sync_private: true,
    dppa_exemption: 'DPPA-3',
  });
}

/**
 * A loopback data gateway (docs/providers.md) answering every source after
 * `latencyMs`, with a sandbox record and the gateway's own report PDF and
 * screenshot, as a vendor would send them.
 */
async function startLoopbackGateway(
  latencyMs: number,
): Promise<{ url: string; calls: () => number; maxInFlight: () => number; close: () => Promise<void> }> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 300]).drawText('vendor report', { x: 20, y: 150 });
  const pdf = Buffer.from(await doc.save()).toString('base64');
  const png = encodeGrayPng(4, 2, new Uint8Array(8).fill(128)).toString('base64');
  const now = new Date();
  let calls = 0;
  let inFlight = 0;
  let max = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      inFlight++;
      max = Math.max(max, inFlight);
      const source = (req.url ?? '/').slice(1);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        vin: string;
        state?: string;
        owners: { name?: string }[];
      };
      const answer =
        source === 'insurance'
          ? {
              outcome: 'found',
              txn_id: `INS-${calls}`,
              coverage: { status: 'ACTIVE', provider_name: 'ACME MUTUAL', policy_number: `P-${calls}` },
            }
          : {
              outcome: 'found',
              txn_id: `GW-${calls}`,
              record: sandboxRecord(
                source as 'state',
                { vin: body.vin, state: body.state ?? undefined, owners: body.owners },
                now,
              ),
              report_pdf_base64: pdf,
              screenshot_png_base64: png,
            };
      const text = JSON.stringify(answer);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
      }, latencyMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    calls: () => calls,
    maxInFlight: () => max,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** CPU seconds (user + system) a process has used so far (Linux /proc), or null elsewhere. */
function cpuSecondsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/** Runs `n` enrichment creates against a fresh daemon configured by `config`; returns seconds create -> complete and the daemon's CPU seconds meanwhile. */
async function run(
  ctx: SuiteContext,
  label: string,
  n: number,
  prefix: string,
  config: Record<string, unknown>,
): Promise<{ seconds: number; createSeconds: number; cpuSeconds: number | null }> {
  const dir = ctx.tmpDir(`titled-bench-enrich-${label}-`);
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const d = await startChild<DaemonReady>(join(ctx.benchDir, 'daemon.js'), {
    env: {
      BENCH_DATA_DIR: dir,
      BENCH_ORG: 'bench',
      BENCH_STAGES: STAGES,
      TITLED_CONFIG: configFile,
      TITLED_SANDBOX_MAINTENANCE: 'off',
    },
    execArgv: ctx.execArgv,
  });
  try {
    ctx.log(`${label}: ${n} entries with sync_nmvtis, sync_public, sync_private (4 pulls + insurance each)`);
    const cpu0 = cpuSecondsOf(d.pid);
    const t0 = performance.now();
    await createMany(d.url, d.ready.key, n, (i) => enrichBody(prefix, i), CONNECTIONS);
    const t1 = performance.now();
    const t2 = await waitComplete(d.url, d.ready.key, n, { everyMs: 25, timeoutMs: 300_000 });
    const cpu1 = cpuSecondsOf(d.pid);
    return {
      seconds: (t2 - t0) / 1000,
      createSeconds: (t1 - t0) / 1000,
      cpuSeconds: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
    };
  } finally {
    await d.stop();
  }
}

/**
 * Enrichment throughput: entries per second from create to complete with all
 * four record sources (NMVTIS, public, state record, portal) and insurance,
 * (A) on the sandbox providers (reports and screenshots rendered by titled),
 * (B) on the http providers against a loopback gateway that answers after 50 ms
 * (the gateway sends its own report and screenshot): concurrency must hide
 * the latency, target >= 100 entries/s.
 */
export const enrichment: Suite = {
  name: 'enrichment',
  description:
    'create -> complete with NMVTIS, public, private and insurance pulls: sandbox, and http against a 50 ms loopback gateway',
  async run(ctx: SuiteContext): Promise<Metric[]> {
    const nSandbox = Math.max(50, Math.round(400 * ctx.scale));
    const nHttp = Math.max(100, Math.round(1000 * ctx.scale));
    const workers = { concurrency: 64, pollIntervalMs: 50 };

    const sandbox = await run(ctx, 'sandbox', nSandbox, '1HGCV1F3', { workers });
    // baseline: the same jobs with every provider switched off (stages run, statuses settle as skipped): the pipeline's own cost
    const none = { provider: 'none' };
    const bare = await run(ctx, 'bare', nHttp, '2T1BU4EE', {
      workers,
      providers: { nmvtis: none, state: none, portal: none, public: none, insurance: none },
    });

    const gw = await startLoopbackGateway(LATENCY_MS);
    let http: Awaited<ReturnType<typeof run>>;
    try {
      const provider = (source: string) => ({
        provider: 'http',
        url: `${gw.url}/${source}`,
        apiKey: 'bench',
        concurrency: 128,
        timeoutMs: 10_000,
        retries: 2,
      });
      http = await run(ctx, 'http', nHttp, '5YJ3E1EA', {
        workers,
        allowHosts: ['127.0.0.1'],
        providers: {
          nmvtis: provider('nmvtis'),
          state: provider('state'),
          portal: provider('portal'),
          public: provider('public'),
          insurance: provider('insurance'),
        },
      });
    } finally {
      await gw.close();
    }
    const pullsPerEntry = 5;
    return [
      {
        name: 'enrichment_sandbox_entries_per_s',
        label: `sandbox providers, all sources, create -> complete, ${nSandbox} entries`,
        value: nSandbox / sandbox.seconds,
        unit: 'entries/s',
        detail: {
          entries: nSandbox,
          seconds: sandbox.seconds,
          create_seconds: sandbox.createSeconds,
          pulls_per_s: (nSandbox * pullsPerEntry) / sandbox.seconds,
          workers: workers.concurrency,
          daemon_cpu_ms_per_entry: sandbox.cpuSeconds === null ? null : (sandbox.cpuSeconds * 1000) / nSandbox,
          files_rendered_per_entry: '3 PDF reports + 1 PNG screenshot',
        },
      },
      {
        name: 'enrichment_http_entries_per_s',
        label: `http providers, ${LATENCY_MS} ms loopback gateway, ${nHttp} entries`,
        value: nHttp / http.seconds,
        unit: 'entries/s',
        baseline: { label: 'same jobs, every provider off (pipeline only)', value: nHttp / bare.seconds },
        target: { op: '>=', value: 100, on: 'value' },
        detail: {
          entries: nHttp,
          seconds: http.seconds,
          create_seconds: http.createSeconds,
          gateway_calls: gw.calls(),
          gateway_max_in_flight: gw.maxInFlight(),
          pulls_per_s: gw.calls() / http.seconds,
          latency_ms: LATENCY_MS,
          workers: workers.concurrency,
          daemon_cpu_ms_per_entry: http.cpuSeconds === null ? null : (http.cpuSeconds * 1000) / nHttp,
          baseline_daemon_cpu_ms_per_entry: bare.cpuSeconds === null ? null : (bare.cpuSeconds * 1000) / nHttp,
          note: 'each entry: 5 gateway calls in 4 sequential stages (state and portal in parallel), so >= 200 ms of latency per entry',
        },
      },
    ];
  },
};
