/**
 * Prometheus metrics (prom-client), one registry per engine (an embedding
 * process may run several engines; prom-client's global registry would mix
 * them). Served at GET /metrics (docs/operations.md lists every metric).
 *
 * Counters and histograms are recorded where things happen (HTTP middleware,
 * the pipeline runner, the webhook sender, the ocr stage); gauges that
 * describe the database (jobs by status, queue depth, entries by job_status)
 * are read at scrape time, so every daemon sharing a database reports the same.
 */
import { createRequire } from 'node:module';
import type * as Prom from 'prom-client';
import type { Database } from './db/database.js';

// prom-client's index loads all of the package (Summary with its t-digest, the Pushgateway client, the cluster
// aggregator), and its default metrics load @opentelemetry/api (51 files) for CPU-counter exemplars this registry never
// turns on: together 83 modules a daemon carried from start-up without using them (docs/operations.md, "Memory").
// The classes come from their own files (the package has no `exports` map; these are the files its index loads),
// the default metrics from theirs (DEFAULT_METRICS), and the CPU counters are defaultCpuMetrics below.
const require = createRequire(import.meta.url);
type Counter<T extends string> = Prom.Counter<T>;
type Histogram<T extends string> = Prom.Histogram<T>;

/** A default metric of prom-client: registers its metrics in `registry` (lib/defaultMetrics.js calls them so). */
type DefaultMetric = (
  registry: Prom.Registry,
  config: { prefix: string; eventLoopMonitoringPrecision: number },
) => void;
/**
 * prom-client's default metrics (lib/defaultMetrics.js, in its order) but the CPU counters (processCpuTotal, whose
 * file loads @opentelemetry/api): test/ops/metrics.test.ts checks that the scrape has every metric
 * `collectDefaultMetrics` registers, with the same type and help.
 */
const DEFAULT_METRICS = [
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
  'gc',
];

/**
 * prom-client's classes and default metrics, loaded with the first Metrics: a process that imports core without
 * starting an engine (the plugin API in a forms render, `titled extract`) does not carry them (about 8 MB).
 */
let loaded:
  | {
      Registry: typeof Prom.Registry;
      Counter: typeof Prom.Counter;
      Gauge: typeof Prom.Gauge;
      Histogram: typeof Prom.Histogram;
      defaults: DefaultMetric[];
    }
  | undefined;
const prom = () =>
  (loaded ??= {
    Registry: require('prom-client/lib/registry.js') as typeof Prom.Registry,
    Counter: require('prom-client/lib/counter.js') as typeof Prom.Counter,
    Gauge: require('prom-client/lib/gauge.js') as typeof Prom.Gauge,
    Histogram: require('prom-client/lib/histogram.js') as typeof Prom.Histogram,
    defaults: DEFAULT_METRICS.map((name) => require(`prom-client/lib/metrics/${name}.js`) as DefaultMetric),
  });

/**
 * prom-client's `process_cpu_user_seconds_total`, `process_cpu_system_seconds_total` and `process_cpu_seconds_total`
 * (lib/metrics/processCpuTotal.js without exemplars): the CPU time used since they were registered, counted when
 * scraped.
 */
function defaultCpuMetrics(registry: Prom.Registry, prefix: string): void {
  const { Counter } = prom();
  const registers = [registry];
  let last = process.cpuUsage();
  // registered in prom-client's order (user, system, total); the first one's collect sets all three, as there
  const user = new Counter({
    name: `${prefix}process_cpu_user_seconds_total`,
    help: 'Total user CPU time spent in seconds.',
    registers,
    collect() {
      const now = process.cpuUsage();
      const userMicros = now.user - last.user;
      const systemMicros = now.system - last.system;
      last = now;
      user.inc(userMicros / 1e6);
      system.inc(systemMicros / 1e6);
      total.inc((userMicros + systemMicros) / 1e6);
    },
  });
  const system = new Counter({
    name: `${prefix}process_cpu_system_seconds_total`,
    help: 'Total system CPU time spent in seconds.',
    registers,
  });
  const total = new Counter({
    name: `${prefix}process_cpu_seconds_total`,
    help: 'Total user and system CPU time spent in seconds.',
    registers,
  });
}

/** prom-client's `collectDefaultMetrics({ register, prefix })`, from the files of its metrics. */
function collectDefaultMetrics(registry: Prom.Registry, prefix: string): void {
  defaultCpuMetrics(registry, prefix);
  const config = { prefix, eventLoopMonitoringPrecision: 10 };
  for (const metric of prom().defaults) metric(registry, config);
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STAGE_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export class Metrics {
  readonly registry: Prom.Registry = new (prom().Registry)();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly stageDuration: Histogram<'stage' | 'outcome'>;
  readonly webhookAttempts: Counter<'outcome'>;
  readonly ocrPages: Counter<never>;
  readonly importRows: Counter<'result'>;

  constructor(db?: Database, o: { defaultMetrics?: boolean } = {}) {
    const { Counter, Histogram } = prom();
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'titled_http_request_duration_seconds',
      help: 'HTTP request duration by route pattern (not the raw path)',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS,
      registers,
    });
    this.stageDuration = new Histogram({
      name: 'titled_stage_duration_seconds',
      help: 'Pipeline stage run time, by stage and outcome (ok, error)',
      labelNames: ['stage', 'outcome'],
      buckets: STAGE_SECONDS,
      registers,
    });
    this.webhookAttempts = new Counter({
      name: 'titled_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, retry, failed, canceled)',
      labelNames: ['outcome'],
      registers,
    });
    this.ocrPages = new Counter({
      name: 'titled_ocr_pages_total',
      help: 'Document pages read by the ocr stage',
      registers,
    });
    this.importRows = new Counter({
      name: 'titled_import_rows_total',
      help: 'Rows of batch imports by result (created, exists, error)',
      labelNames: ['result'],
      registers,
    });
    if (db) this.databaseGauges(db);
    if (o.defaultMetrics !== false) collectDefaultMetrics(this.registry, 'titled_');
  }

  /** Gauges read from the database at scrape time. */
  private databaseGauges(db: Database): void {
    const { Gauge } = prom();
    const registers = [this.registry];
    const count = async (sql: string) =>
      (await db.query<{ k: string; n: unknown }>(sql)).map((r) => [String(r.k), Number(r.n)] as const);
    new Gauge({
      name: 'titled_jobs',
      help: 'Jobs in the durable queue by status (queued, running, failed; finished jobs are removed)',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        for (const [k, n] of await count('SELECT status AS k, COUNT(*) AS n FROM jobs GROUP BY status'))
          this.set({ status: k }, n);
      },
    });
    new Gauge({
      name: 'titled_queue_depth',
      help: 'Jobs waiting to run (queued)',
      registers,
      async collect() {
        const [r] = await count("SELECT 'queued' AS k, COUNT(*) AS n FROM jobs WHERE status = 'queued'");
        this.set(r ? r[1] : 0);
      },
    });
    new Gauge({
      name: 'titled_entries',
      help: 'Title entries by job_status',
      labelNames: ['job_status'],
      registers,
      async collect() {
        this.reset();
        for (const [k, n] of await count('SELECT "jobStatus" AS k, COUNT(*) AS n FROM entries GROUP BY "jobStatus"'))
          this.set({ job_status: k }, n);
      },
    });
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
