import { expect } from 'chai';
import { PDFDocument } from 'pdf-lib';
import { HttpEnrichmentProvider } from '../../plugins/enrichment/common/http-provider.js';
import type { EnrichmentRequest } from '../../plugins/enrichment/common/provider.js';
import { sandboxRecord } from '../../plugins/enrichment/common/sandbox/records.js';
import { encodeGrayPng } from '../../plugins/enrichment/common/screenshot-png.js';
import { NmvtisHttpProvider } from '../../plugins/enrichment/nmvtis/providers/http.js';
import {
  BORROWER,
  create,
  download,
  events,
  QUIET_TIME,
  sandboxVin,
  settled,
  startEnrichmentEngine,
  startGateway,
  type EnrichmentEngine,
  type Gateway,
  type GatewayAnswer,
} from './support.js';

const VIN = sandboxVin('000101');
const req = (o: Partial<EnrichmentRequest> = {}): EnrichmentRequest => ({
  source: 'state',
  vin: VIN,
  state: 'TX',
  owners: [{ name: 'Jane Doe' }],
  organization: 'acme',
  entry_id: 'e-1',
  dppa_exemption: 'DPPA-3',
  ...o,
});
const ctx = { now: QUIET_TIME };
const found = (vin = VIN, extra: Record<string, unknown> = {}): GatewayAnswer => ({
  json: {
    outcome: 'found',
    txn_id: 'GW-1',
    record: { vehicle: { vin, title: { issuing_state: 'TX', number: 'T-1' } } },
    ...extra,
  },
});

async function tinyPdf(): Promise<Buffer> {
  const d = await PDFDocument.create();
  d.addPage([200, 200]).drawText('gateway report', { x: 10, y: 100 });
  d.setTitle('gateway report');
  return Buffer.from(await d.save());
}

describe('enrichment: the http provider against a local gateway', () => {
  let g: Gateway;
  let answer: (n: number) => GatewayAnswer | Promise<GatewayAnswer> = () => found();
  before(async () => {
    g = await startGateway((_c, n) => answer(n));
  });
  after(async () => g?.close());
  beforeEach(async () => {
    // requests an earlier test gave up on may still be held by the server
    while (g.inFlight > 0) await new Promise((r) => setTimeout(r, 10));
    g.calls.length = 0;
    g.maxInFlight = 0;
  });
  const provider = (o: Record<string, unknown> = {}, source: 'state' | 'portal' | 'public' | 'insurance' = 'state') =>
    new HttpEnrichmentProvider(
      source,
      { provider: 'http', url: `${g.url}/records`, apiKey: 'k-123', retries: 2, retryBaseMs: 1, timeoutMs: 2000, ...o },
      { allowHosts: ['127.0.0.1'] },
    );

  it('found: POSTs the documented request (names only, DPPA exemption, credentials, idempotency key) and returns record, report and screenshot', async () => {
    const pdf = await tinyPdf();
    const png = encodeGrayPng(2, 2, new Uint8Array([0, 255, 255, 0]));
    answer = () =>
      found(VIN, {
        report_pdf_base64: pdf.toString('base64'),
        screenshot_png_base64: png.toString('base64'),
        raw: { vendor: 'x' },
      });
    const out = await provider().fetch(req(), ctx);
    expect(out.outcome).to.equal('found');
    if (out.outcome !== 'found') return;
    expect(out.txn_id).to.equal('GW-1');
    expect(out.record.vehicle!.title!.number).to.equal('T-1');
    expect(Buffer.from(out.report_pdf!).equals(pdf)).to.equal(true);
    expect(Buffer.from(out.screenshot_png!).equals(png)).to.equal(true);
    expect(out.raw).to.deep.equal({ vendor: 'x' });
    const call = g.calls[0]!;
    expect(call.method).to.equal('POST');
    expect(call.url).to.equal('/records');
    expect(call.headers.authorization).to.equal('Bearer k-123');
    expect(call.headers['x-titled-source']).to.equal('state');
    expect(call.headers['content-type']).to.match(/application\/json/);
    expect(call.headers['idempotency-key']).to.match(/^e-1:state:[0-9a-f-]{36}$/);
    expect(call.body).to.include({
      source: 'state',
      vin: VIN,
      state: 'TX',
      dppa_exemption: 'DPPA-3',
      organization: 'acme',
      entry_id: 'e-1',
      requested_at: QUIET_TIME.toISOString(),
    });
    expect(call.body.owners).to.deep.equal([{ name: 'Jane Doe' }]);
    expect(call.body.request_id).to.match(/^[0-9a-f-]{36}$/);
  });

  it('basic credentials when there is no apiKey', async () => {
    answer = () => found();
    await provider({ apiKey: undefined, username: 'lender', password: 's3cret' }).fetch(req(), ctx);
    expect(g.calls[0]!.headers.authorization).to.equal(`Basic ${Buffer.from('lender:s3cret').toString('base64')}`);
  });

  it('not_found: HTTP 404, or 200 with outcome not_found (its txn_id kept)', async () => {
    answer = () => ({ status: 404, text: 'no such vehicle' });
    expect(await provider().fetch(req(), ctx)).to.deep.equal({ outcome: 'not_found' });
    answer = () => ({ json: { outcome: 'not_found', txn_id: 'GW-NF', message: 'no title on file' } });
    expect(await provider().fetch(req(), ctx)).to.deep.equal({
      outcome: 'not_found',
      txn_id: 'GW-NF',
      message: 'no title on file',
    });
    expect(g.calls).to.have.length(2);
  });

  it('failing: 5xx is retried with backoff; a gateway that keeps failing is error, a 503 that stays is unavailable', async () => {
    answer = (n) => (n <= 2 ? { status: 502, text: 'bad gateway' } : found());
    expect((await provider().fetch(req(), ctx)).outcome).to.equal('found');
    expect(g.calls, 'two failures, then the answer').to.have.length(3);
    g.calls.length = 0;
    answer = () => ({ status: 500, text: 'boom' });
    expect(await provider().fetch(req(), ctx)).to.deep.equal({
      outcome: 'error',
      message: 'gateway answered HTTP 500',
    });
    expect(g.calls, 'first try + 2 retries').to.have.length(3);
    g.calls.length = 0;
    answer = () => ({ status: 503, json: { outcome: 'unavailable' } });
    expect(await provider().fetch(req(), ctx)).to.deep.equal({
      outcome: 'unavailable',
      message: 'source unavailable (HTTP 503)',
    });
    expect(g.calls).to.have.length(3);
  });

  it('a 4xx other than 404 is an error at once (not retried)', async () => {
    answer = () => ({ status: 401, text: 'bad key' });
    expect(await provider().fetch(req(), ctx)).to.deep.equal({
      outcome: 'error',
      message: 'gateway answered HTTP 401',
    });
    expect(g.calls).to.have.length(1);
  });

  it('slow: an attempt over timeoutMs is cut and retried; still slow is an error', async () => {
    answer = (n) => (n === 1 ? { ...found(), delayMs: 400 } : found());
    expect((await provider({ timeoutMs: 100, retries: 1 }).fetch(req(), ctx)).outcome).to.equal('found');
    expect(g.calls).to.have.length(2);
    g.calls.length = 0;
    answer = () => ({ ...found(), delayMs: 400 });
    expect(await provider({ timeoutMs: 100, retries: 1 }).fetch(req(), ctx)).to.deep.equal({
      outcome: 'error',
      message: 'timed out after 100 ms (2 attempts)',
    });
  });

  it('malformed: not JSON, no outcome, found without a record, a record of another VIN; a report that is no PDF is dropped', async () => {
    const cases: [GatewayAnswer, RegExp][] = [
      [{ text: '<html>oops</html>' }, /malformed response: body is not JSON/],
      [{ json: { result: 'ok' } }, /malformed response: outcome/],
      [{ json: { outcome: 'found', txn_id: 'x' } }, /malformed response: record: required/],
      [{ json: { outcome: 'found' } }, /malformed response: txn_id/],
      [found(sandboxVin('000201')), /another VIN/],
      [
        { json: { outcome: 'found', txn_id: 'x', record: { vehicle: { year: 'new' } } } },
        /malformed response: record\.vehicle\.year/,
      ],
    ];
    for (const [a, re] of cases) {
      answer = () => a;
      const out = await provider().fetch(req(), ctx);
      expect(out.outcome, JSON.stringify(a)).to.equal('error');
      expect((out as { message: string }).message).to.match(re);
    }
    answer = () => found(VIN, { report_pdf_base64: Buffer.from('not a pdf').toString('base64') });
    const out = await provider().fetch(req(), ctx);
    expect(out.outcome).to.equal('found');
    expect(out).to.not.have.property('report_pdf');
  });

  it('concurrency: no more requests in flight than `concurrency`', async () => {
    answer = () => ({ ...found(), delayMs: 40 });
    const p = provider({ concurrency: 3 });
    const outs = await Promise.all(Array.from({ length: 10 }, () => p.fetch(req(), ctx)));
    expect(outs.every((o) => o.outcome === 'found')).to.equal(true);
    expect(g.maxInFlight).to.equal(3);
    p.close();
  });

  it('insurance answers carry coverage; states outside `states` are not served', async () => {
    answer = () => ({
      json: {
        outcome: 'found',
        txn_id: 'INS-1',
        coverage: { status: 'LAPSED', lapse_date: '2026-02-01', provider_name: 'ACME' },
      },
    });
    const out = await provider({}, 'insurance').fetch(req({ source: 'insurance' }), ctx);
    expect(out.outcome === 'found' && out.coverage).to.deep.include({ status: 'LAPSED', lapse_date: '2026-02-01' });
    const only = provider({ states: ['CA', 'NV'] });
    expect([only.covers('CA'), only.covers('TX')]).to.deep.equal([true, false]);
  });

  it('the outbound URL guard: a loopback gateway is refused unless allowHosts names it; a bad option is refused at start', () => {
    expect(
      () => new HttpEnrichmentProvider('state', { provider: 'http', url: `${g.url}/x` }, { allowHosts: [] }),
    ).to.throw(/loopback/);
    expect(
      () => new HttpEnrichmentProvider('state', { provider: 'http', url: 'file:///etc/passwd' }, { allowHosts: [] }),
    ).to.throw();
    expect(
      () =>
        new HttpEnrichmentProvider(
          'state',
          { provider: 'http', url: `${g.url}/x`, retries: -1 },
          { allowHosts: ['127.0.0.1'] },
        ),
    ).to.throw();
  });

  it('a cancelled stage aborts the call', async () => {
    answer = () => ({ ...found(), delayMs: 300 });
    const ac = new AbortController();
    const pending = provider().fetch(req(), { now: QUIET_TIME, signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stage stopping')), 20);
    let err: unknown;
    try {
      await pending;
    } catch (e) {
      err = e;
    }
    expect(err, 'the fetch rejects').to.be.instanceOf(Error);
  });

  it('NMVTIS: a gateway failure inside a maintenance window is unavailable, not error', async () => {
    answer = () => ({ status: 500, text: 'down' });
    const p = new NmvtisHttpProvider(
      { provider: 'http', url: `${g.url}/nmvtis`, retries: 0 },
      { allowHosts: ['127.0.0.1'] },
    );
    expect((await p.fetch(req({ source: 'nmvtis' }), { now: new Date('2026-03-08T08:00:00Z') })).outcome).to.equal(
      'unavailable',
    );
    expect((await p.fetch(req({ source: 'nmvtis' }), ctx)).outcome).to.equal('error');
  });
});

describe('enrichment through the API: every source on the http provider', () => {
  let g: Gateway;
  let t: EnrichmentEngine;
  let pdf: Buffer;
  const png = encodeGrayPng(3, 1, new Uint8Array([0, 128, 255]));
  /** VIN -> how many calls it has had, per source (a VIN ending in 0 is not found on its first call only). */
  const seen = new Map<string, number>();
  let slow = false;
  let malformed = false;

  before(async () => {
    pdf = await tinyPdf();
    g = await startGateway((call) => {
      const source = call.url.slice(1);
      const body = call.body as EnrichmentRequest;
      if (malformed && source === 'public') return { text: 'garbage' };
      if (slow && source === 'public') return { ...found(), delayMs: 500 };
      const n = (seen.get(`${source}/${body.vin}`) ?? 0) + 1;
      seen.set(`${source}/${body.vin}`, n);
      if (body.vin.endsWith('0') && n === 1) return { json: { outcome: 'not_found', txn_id: `NF-${source}` } };
      if (source === 'insurance')
        return {
          json: {
            outcome: 'found',
            txn_id: 'INS-1',
            coverage: {
              status: 'LAPSED',
              lapse_date: '2026-01-15',
              provider_name: 'ACME MUTUAL',
              policy_number: 'AM-1',
            },
            raw: { carrier: 'acme' },
          },
        };
      const record = sandboxRecord(
        source as 'state',
        { vin: body.vin, state: body.state ?? undefined, owners: body.owners },
        QUIET_TIME,
      );
      return {
        json: {
          outcome: 'found',
          txn_id: `GW-${source}-${n}`,
          record,
          report_pdf_base64: pdf.toString('base64'),
          screenshot_png_base64: png.toString('base64'),
        },
      };
    });
    const http = (source: string) => ({
      provider: 'http',
      url: `${g.url}/${source}`,
      apiKey: 'k',
      retryBaseMs: 1,
      timeoutMs: 200,
      retries: 1,
    });
    t = await startEnrichmentEngine({
      config: {
        allowHosts: ['127.0.0.1'],
        providers: {
          nmvtis: http('nmvtis'),
          state: http('state'),
          portal: http('portal'),
          public: http('public'),
          insurance: http('insurance'),
        },
      },
    });
  });
  after(async () => {
    await t?.stop();
    await g?.close();
  });

  it("pulls every source through the gateway; stores the gateway's own report and screenshot; sends DPPA only where it belongs, names only", async () => {
    const v = sandboxVin('100101');
    const borrower = { ...BORROWER, ssn: '111-22-3333', dob: '1980-01-01', dlid: { number: 'D123' } };
    const id = await create(t, {
      account_data: { vehicle: { vin: v, title: { issuing_state: 'TX' } }, loan: { borrower: [borrower] } },
      sync_nmvtis: true,
      sync_public: true,
      sync_private: true,
      dppa_exemption: 'DPPA-7',
    });
    const e = await settled(t, id);
    expect([e.nmvtis_found_status, e.public_found_status, e.state_found_status, e.portal_found_status]).to.deep.equal([
      'found',
      'found',
      'found',
      'found',
    ]);
    expect(e.nmvtis_txn_id).to.equal('GW-nmvtis-1');
    expect((await download(e.state_report_pdf)).body.equals(pdf)).to.equal(true);
    expect((await download(e.portal_screenshot)).body.equals(png)).to.equal(true);
    expect(e.insurance_search_result).to.equal('found');
    expect(e.insurance_search_raw_data).to.deep.equal({ carrier: 'acme' });
    expect(e.account_data.vehicle.reg_title_holds[0]).to.include({ hold_type: 'INSURANCE', issue_date: '2026-01-15' });
    const bodies = Object.fromEntries(
      g.calls
        .filter((c) => (c.body as EnrichmentRequest).vin === v)
        .map((c) => [c.url.slice(1), c.body as Record<string, unknown>]),
    );
    expect(Object.keys(bodies).sort()).to.deep.equal(['insurance', 'nmvtis', 'portal', 'public', 'state']);
    for (const s of ['nmvtis', 'state', 'portal']) expect(bodies[s]!.dppa_exemption, s).to.equal('DPPA-7');
    for (const s of ['public', 'insurance']) expect(bodies[s], s).to.not.have.property('dppa_exemption');
    for (const s of Object.keys(bodies)) {
      expect(bodies[s]!.state, s).to.equal('TX');
      expect(JSON.stringify(bodies[s]), `${s}: no PII beyond names`).to.not.match(/111-22-3333|1980-01-01|D123/);
    }
    expect(bodies.nmvtis!.owners).to.deep.equal([{ name: 'Jane Q. Doe' }]);
  });

  it('title.data.found when the gateway finds on a resync what it did not find before', async () => {
    const v = sandboxVin('100110');
    const id = await create(t, {
      account_data: { vehicle: { vin: v, title: { issuing_state: 'TX' } }, loan: { borrower: [BORROWER] } },
      sync_nmvtis: true,
      sync_public: true,
    });
    let e = await settled(t, id);
    expect([e.nmvtis_found_status, e.public_found_status]).to.deep.equal(['not_found', 'not_found']);
    expect(e.nmvtis_txn_id).to.equal('NF-nmvtis');
    expect(await events(t, id)).to.not.include('title.data.found');
    await t.request('POST', `/title/${id}/data`, { body: { sync_nmvtis: true, sync_public: true } });
    e = await settled(t, id);
    expect([e.nmvtis_found_status, e.public_found_status]).to.deep.equal(['found', 'found']);
    const rows = (await t.engine.outbox.forEntry(id)).filter((r) => r.name === 'title.data.found');
    expect(rows.map((r) => r.payload.source).sort()).to.deep.equal(['nmvtis', 'public']);
  });

  it('a slow or malformed gateway settles the pull as error with a note; the job still completes and earlier data stays', async () => {
    const v = sandboxVin('100201');
    const id = await create(t, {
      account_data: { vehicle: { vin: v, title: { issuing_state: 'TX' } } },
      sync_public: true,
    });
    const first = await settled(t, id);
    expect(first.public_found_status).to.equal('found');
    for (const [mode, note] of [
      ['slow', /timed out after 200 ms \(2 attempts\)/],
      ['malformed', /malformed response/],
    ] as const) {
      slow = mode === 'slow';
      malformed = mode === 'malformed';
      try {
        await t.request('POST', `/title/${id}/data`, { body: { sync_public: true } });
        const e = await settled(t, id);
        expect(e.job_status).to.equal('complete');
        expect(e.public_found_status).to.equal('error');
        expect(e.enrichment_notes.public).to.match(note);
        expect(e.public_pull, 'the last found pull stays').to.be.a('string');
        expect(e.public_last_fetch).to.equal(first.public_last_fetch);
        expect(e.account_data.vehicle.title.has_liens).to.equal(first.account_data.vehicle.title.has_liens);
      } finally {
        slow = malformed = false;
      }
    }
  });
});
