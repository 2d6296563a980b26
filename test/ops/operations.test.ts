import { expect } from 'chai';
import { DIALECTS, VALID_VIN, eventually, startTestEngine } from '../helpers/engine.js';
import { jobEnded, receiver, startWebhookEngine } from '../webhook/support.js';

/** A metric's value from the exposition text (first sample matching name and label text). */
function sample(text: string, name: string, labels = ''): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (labels ? rest.startsWith(`{`) && rest.includes(labels) : /^ /.test(rest)) return Number(line.split(' ').pop());
  }
  return undefined;
}

for (const dialect of DIALECTS) {
  describe(`operations: request id, metrics, CORS (${dialect})`, function () {
    this.timeout(120_000);

    it('generates a request id, echoes a given one, and puts it on every log line of the request', async () => {
      const t = await startTestEngine({ dialect, config: { log: { level: 'debug' } } });
      try {
        const a = await t.request('GET', '/title?limit=1');
        const generated = a.headers.get('x-request-id');
        expect(generated).to.match(/^[0-9a-f-]{36}$/);
        const b = await t.request('GET', '/title/nope', { headers: { 'x-request-id': 'trace-abc.123' } });
        expect(b.status).to.equal(404);
        expect(b.headers.get('x-request-id')).to.equal('trace-abc.123');
        // a header that is not a safe id is replaced, never echoed
        const c = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'x'.repeat(300) } });
        expect(c.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
        const lines = t.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
        const ofB = lines.filter((l) => l.reqId === 'trace-abc.123');
        expect(ofB.some((l) => l.msg === 'request' && l.status === 404)).to.equal(true);
        expect(lines.filter((l) => l.msg === 'request').every((l) => typeof l.reqId === 'string')).to.equal(true);
      } finally {
        await t.stop();
      }
    });

    it('/metrics: HTTP latency by route, jobs by status, queue depth, stage durations, webhook outcomes', async () => {
      const r = await receiver();
      const t = await startWebhookEngine({ dialect });
      try {
        await t.wh.setProfile(t.org.name, {
          url: `${r.url}/hook`,
          events: ['title.job_status.complete'],
          auth: { scheme: 'none' },
        });
        const created = await t.request('POST', '/title', { body: { account_data: { vehicle: { vin: VALID_VIN } } } });
        await t.request('GET', `/title/${created.body.entryId}`);
        await jobEnded(t, created.body.entryId);
        await eventually(async () => r.ok.length > 0, { what: 'webhook received' });
        const m = await t.request('GET', '/metrics', { key: null });
        expect(m.status).to.equal(200);
        expect(m.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
        const text = String(m.body);
        expect(sample(text, 'titled_http_request_duration_seconds_count', 'route="/title/:id"')).to.equal(1);
        expect(text).not.to.include(created.body.entryId);
        // finished jobs leave the queue: none queued or running now
        expect(text).to.include('# TYPE titled_jobs gauge');
        expect(sample(text, 'titled_jobs', 'status="queued"') ?? 0).to.equal(0);
        expect(sample(text, 'titled_queue_depth')).to.equal(0);
        expect(sample(text, 'titled_entries', 'job_status="complete"')).to.equal(1);
        expect(sample(text, 'titled_stage_duration_seconds_count', 'stage="intake",outcome="ok"')).to.equal(1);
        expect(sample(text, 'titled_webhook_attempts_total', 'outcome="delivered"')).to.equal(1);
        expect(text).to.include('# TYPE titled_ocr_pages_total counter');
        expect(text).to.include('titled_process_resident_memory_bytes');
      } finally {
        await t.stop();
        await r.close();
      }
    });
  });
}

describe('operations: CORS', function () {
  this.timeout(60_000);

  it('is off by default: no Access-Control headers', async () => {
    const t = await startTestEngine();
    try {
      const res = await t.request('GET', '/healthz', { headers: { origin: 'https://app.example' } });
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
      const pre = await fetch(`${t.url}/title`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(pre.headers.get('access-control-allow-origin')).to.equal(null);
    } finally {
      await t.stop();
    }
  });

  it('answers the configured origins only, preflight included', async () => {
    const t = await startTestEngine({ config: { cors: { origins: ['https://app.example'], credentials: true } } });
    try {
      const pre = await fetch(`${t.url}/title`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(pre.status).to.equal(204);
      expect(pre.headers.get('access-control-allow-origin')).to.equal('https://app.example');
      expect(pre.headers.get('access-control-allow-credentials')).to.equal('true');
      expect(pre.headers.get('access-control-allow-methods')).to.include('POST');
      const res = await t.request('GET', '/title?limit=1', { headers: { origin: 'https://app.example' } });
      expect(res.headers.get('access-control-allow-origin')).to.equal('https://app.example');
      expect(res.headers.get('access-control-expose-headers')).to.include('X-Request-Id');
      const other = await t.request('GET', '/title?limit=1', { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).to.equal(null);
    } finally {
      await t.stop();
    }
  });
});
