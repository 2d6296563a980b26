/** Small fetch helpers against a titled daemon (Bearer API key). */

export async function api(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url + path, { method, headers, body });
  return { status: res.status, text: await res.text() };
}

/**
 * POSTs `n` structured creates with `concurrency` requests in flight; returns
 * the entry ids in order. Throws on the first non-200.
 */
export async function createMany(
  url: string,
  key: string,
  n: number,
  body: (i: number) => string,
  concurrency = 10,
): Promise<string[]> {
  const ids = new Array<string>(n);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      const r = await api(url, key, 'POST', '/title', body(i));
      if (r.status !== 200) throw new Error(`POST /title answered ${r.status}: ${r.text.slice(0, 300)}`);
      ids[i] = (JSON.parse(r.text) as { entryId: string }).entryId;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return ids;
}

/** How many entries of the key's organization have `job_status` (GET /title?stateMap=true counts every state). */
export async function countWithStatus(url: string, key: string, status: string): Promise<number> {
  const r = await api(url, key, 'GET', `/title?stateMap=true&job_status=${status}`);
  if (r.status !== 200) throw new Error(`GET /title?stateMap=true answered ${r.status}: ${r.text.slice(0, 300)}`);
  return (JSON.parse(r.text) as { count: number }).count;
}

/** Polls until `want` entries are complete; returns the time (performance.now()) it saw them, or throws after `timeoutMs`. */
export async function waitComplete(
  url: string,
  key: string,
  want: number,
  o: { everyMs?: number; timeoutMs?: number } = {},
): Promise<number> {
  const deadline = performance.now() + (o.timeoutMs ?? 120_000);
  for (;;) {
    const n = await countWithStatus(url, key, 'complete');
    const now = performance.now();
    if (n >= want) return now;
    if (now > deadline) {
      const errors = await countWithStatus(url, key, 'error');
      throw new Error(`only ${n} of ${want} entries complete after ${o.timeoutMs ?? 120_000} ms (${errors} in error)`);
    }
    await new Promise((r) => setTimeout(r, o.everyMs ?? 50));
  }
}
