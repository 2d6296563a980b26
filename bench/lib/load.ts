import autocannon from 'autocannon';

export interface LoadResult {
  /** 2xx responses per second over the run. */
  rps: number;
  total2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationS: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Mean response body size in bytes. */
  bytesPerResponse: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  method?: 'GET' | 'POST';
  path?: string;
  headers?: Record<string, string>;
  /** Called for every request: returns the path and/or body of that request. */
  next?: () => { path?: string; body?: string };
}

/** One autocannon run; requests per second counts 2xx responses only. */
export async function load(o: LoadOptions): Promise<LoadResult> {
  const next = o.next;
  const r = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.durationS,
    timeout: 30,
    requests: [
      {
        method: o.method ?? 'GET',
        path: o.path ?? '/',
        headers: o.headers,
        ...(next ? { setupRequest: (req: autocannon.Request) => ({ ...req, ...next() }) } : {}),
      },
    ],
  });
  const total2xx = r['2xx'];
  const durationS = r.duration;
  return {
    rps: durationS > 0 ? total2xx / durationS : 0,
    total2xx,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    durationS,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max },
    bytesPerResponse: r.requests.total > 0 ? Math.round(r.throughput.total / r.requests.total) : 0,
  };
}

/** Warm-up (discarded), then the measured run. */
export async function warmAndLoad(o: LoadOptions, warmupS: number): Promise<LoadResult> {
  if (warmupS > 0) await load({ ...o, durationS: warmupS });
  return load(o);
}
