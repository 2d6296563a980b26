/**
 * Document intake through the HTTP API: POST /title with attachments served
 * by a local file server on 127.0.0.1 (allowed by `allowHosts` in the test
 * config), then GET /title/{id}. Fetch, URL guard, sniffing, limits,
 * storage, bdaJobs, the merge rule and the VIN rule.
 */
import { expect } from 'chai';
import { eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import type { TitleTruth } from '../fixtures/ocr/generator/truth.js';
import { corpusDoc, joinPdfs, startFileServer, type FileServer } from './support.js';

const TITLE = 'title-tx-0-digital';
const BACK = 'dl-back-0-scan';
const PAYOFF = 'payoff-letter-0-digital';

describe('ocr stage through the API', function () {
  this.timeout(180_000);
  let files: FileServer;
  let t: TestEngine;
  const file = (id: string) => `${files.url}/files/${corpusDoc(id).file}`;

  /** Creates (as `key`'s organization: each test has its own, so VINs do not meet) and waits for the job. */
  async function createAndWait(body: unknown, key?: string): Promise<any> {
    const res = await t.request('POST', '/title', { body, key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return eventually(
      async () => {
        const g = await t.request('GET', `/title/${res.body.entryId}`, { key });
        return g.body.job_status === 'complete' || g.body.job_status === 'error' ? g.body : null;
      },
      { tries: 1200, everyMs: 50, what: 'job finished' },
    );
  }

  before(async () => {
    files = await startFileServer();
    t = await startTestEngine({
      config: { stages: ['intake', 'ocr'], allowHosts: ['127.0.0.1'], log: { level: 'warn' } },
    });
  });
  after(async () => {
    await t?.stop();
    await files?.close();
  });

  it('fetches, stores and reads each document; lists it in attachment with its extraction; fills account data and the VIN', async () => {
    const truth = corpusDoc(TITLE).truth as TitleTruth;
    const e = await createAndWait({ attachments: [file(TITLE), file(BACK)] });
    expect(e.job_status).to.equal('complete');
    expect(e.attachment).to.have.length(2);
    const [title, back] = e.attachment;
    expect(title.document_type).to.equal('VEHICLE_TITLE');
    expect(back.document_type).to.equal('DRIVER_LICENSE_BACK');
    expect(title.display_name).to.equal(corpusDoc(TITLE).file);
    for (const a of e.attachment) {
      expect(a.store_key).to.match(
        /^http:\/\/localhost:\d+\/files\/.+\/documents\/doc_[0-9a-f]{16}\/original\.(pdf|png)\?expires=\d+&signature=[0-9a-f]{64}$/,
      );
      expect(a.json_path).to.match(/\/extraction\.json\?expires=/);
      expect(e.bdaJobs[a.doc_id]).to.equal('complete');
    }
    // the stored original and the stored extraction are readable through their presigned URLs
    const orig = await fetch(title.store_key);
    expect(
      Buffer.from(await orig.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).to.equal('%PDF-');
    const ex = (await (await fetch(title.json_path)).json()) as any;
    expect(ex.document_type).to.equal('VEHICLE_TITLE');
    expect(ex.fields.vin).to.equal(truth.vehicle.vin);
    expect(ex.account_data.vehicle.vin).to.equal(truth.vehicle.vin);
    // a documents-only entry takes the VIN the title shows
    expect(e.VIN).to.equal(truth.vehicle.vin);
    expect(e.state).to.equal(truth.state);
    const v = e.account_data.vehicle;
    expect([v.year, v.make, v.model]).to.deep.equal([truth.vehicle.year, truth.vehicle.make, truth.vehicle.model]);
    expect(v.title.number).to.equal(truth.title_number);
    expect(v.title.owners.map((o: any) => o.name)).to.deep.equal(
      truth.owners.map((o) => [o.first, o.middle, o.last, o.suffix].filter(Boolean).join(' ')),
    );
    // the license holder becomes the borrower (no borrower was submitted)
    const holder = corpusDoc(BACK).truth as { person: { last: string }; number: string };
    expect(e.account_data.loan.borrower[0].name_last).to.equal(holder.person.last);
    expect(e.account_data.loan.borrower[0].dlid.number).to.equal(holder.number);
    expect(e.Borrower).to.contain(holder.person.last);
    expect(e).to.not.have.property('ocr_meta');
  });

  it("keeps the client's structured data over extracted values and records the disagreements and agreements", async () => {
    const truth = corpusDoc(TITLE).truth as TitleTruth;
    const { key } = await t.newOrg();
    const e = await createAndWait(
      {
        attachments: [file(TITLE)],
        account_data: {
          vehicle: {
            vin: truth.vehicle.vin,
            make: 'ACURA',
            year: truth.vehicle.year,
            title: { owners: [{ name: 'SOMEONE ELSE' }] },
          },
        },
      },
      key,
    );
    expect(e.account_data.vehicle.make).to.equal('ACURA');
    expect(e.account_data.vehicle.model).to.equal(truth.vehicle.model); // the client left it empty: the title fills it
    expect(e.account_data.vehicle.title.owners).to.deep.equal([{ name: 'SOMEONE ELSE' }]); // the owner group is the client's
    const d = e.account_discrepancies.items.find((i: any) => i.field_path === '/vehicle/make');
    expect(d.observations).to.deep.equal([
      { from: { kind: 'submitted_account_data', ref_id: 'account_data', doc_type: 'ACCOUNT_DATA' }, value: 'ACURA' },
      {
        from: { kind: 'document_upload', ref_id: e.attachment[0].store_key, doc_type: 'VEHICLE_TITLE' },
        value: truth.vehicle.make,
      },
    ]);
    expect(e.account_discrepancies.items.map((i: any) => i.field_path)).to.include('/vehicle/title/owners');
    const m = e.account_matches.items.find((i: any) => i.field_path === '/vehicle/vin');
    expect(m.agreed_value).to.equal(truth.vehicle.vin);
    expect(m.sources.map((s: any) => s.kind)).to.deep.equal(['submitted_account_data', 'document_upload']);
  });

  it('reads a payoff letter into the prior lien and the payoff amounts', async () => {
    const truth = corpusDoc(PAYOFF).truth as {
      lender: { name: string };
      account: string;
      payoff: string;
      per_diem: string;
      good_through: string;
    };
    const e = await createAndWait(
      { attachments: [file(PAYOFF)], account_data: { loan: { loan_id: 'L-1' } } },
      (await t.newOrg()).key,
    );
    expect(e.account_data.loan.payoff_amount).to.equal(Number(truth.payoff));
    expect(e.account_data.loan.per_diem).to.equal(Number(truth.per_diem));
    expect(e.account_data.loan.payoff_good_through).to.equal(truth.good_through);
    expect(e.account_data.loan.prior_lien.lienholder.name).to.equal(truth.lender.name);
    expect(e.account_data.loan.prior_lien.lien_id).to.equal(truth.account);
    expect(e.attachment[0].document_type).to.equal('PAYOFF_LETTER');
  });

  it('sniffs content from the bytes: an HTML page served as a PDF is rejected with a reason; the other documents go on', async () => {
    const e = await createAndWait({ attachments: [`${files.url}/html.pdf`, file(PAYOFF)] }, (await t.newOrg()).key);
    expect(e.job_status).to.equal('complete');
    expect(e.attachment.map((a: any) => a.document_type)).to.deep.equal(['PAYOFF_LETTER']);
    const err = e.attachment_errors.find((x: any) => x.url.endsWith('/html.pdf'));
    expect(err.code).to.equal('UNSUPPORTED_FORMAT');
    expect(err.reason).to.equal('the document is an HTML page, not a PDF, JPEG or PNG');
    expect(e.bdaJobs[err.doc_id]).to.equal('rejected');
  });

  it('refuses addresses the URL guard blocks, also behind a redirect, and reports HTTP errors', async () => {
    const e = await createAndWait({
      attachments: [
        'http://169.254.169.254/latest/meta-data/',
        'http://10.1.2.3/title.pdf',
        `http://[::1]:${new URL(files.url).port}/files/${corpusDoc(TITLE).file}`,
        `${files.url}/to/http://169.254.169.254/latest/meta-data/`,
        `${files.url}/status/404`,
      ],
    });
    expect(e.job_status).to.equal('complete');
    expect(e.attachment).to.deep.equal([]);
    const codes = e.attachment_errors.map((x: any) => x.code);
    expect(codes).to.deep.equal([
      'FETCH_BLOCKED',
      'FETCH_BLOCKED',
      'FETCH_BLOCKED',
      'FETCH_BLOCKED',
      'FETCH_HTTP_STATUS',
    ]);
    expect(e.attachment_errors[0].reason).to.match(/cloud metadata/);
    expect(e.attachment_errors[1].reason).to.match(/private/);
    expect(e.attachment_errors[2].reason).to.match(/loopback/);
    expect(e.attachment_errors[4].reason).to.equal('the server answered 404');
    expect(Object.values(e.bdaJobs)).to.deep.equal(['rejected', 'rejected', 'rejected', 'rejected', 'rejected']);
    // a query string may hold credentials: errors show the URL without it
    const q = await createAndWait({ attachments: [`${files.url}/status/403?token=secret`] });
    expect(q.attachment_errors[0].url).to.equal(`${files.url}/status/403`);
  });

  it("records a document's VIN that another entry of the organization has, instead of failing on the unique index", async () => {
    const truth = corpusDoc('reg-card-0-digital').truth as { vehicle: { vin: string } };
    const { key } = await t.newOrg();
    const a = await createAndWait({ account_data: { vehicle: { vin: truth.vehicle.vin } } }, key);
    const b = await createAndWait({ attachments: [file('reg-card-0-digital')] }, key);
    expect(b.job_status).to.equal('complete');
    expect(b.VIN).to.equal('');
    expect(b.account_data.vehicle.vin).to.equal(undefined);
    expect(b.vin_conflict).to.include({
      vin: truth.vehicle.vin,
      existing_entry_id: a.entryId,
      doc_id: b.attachment[0].doc_id,
    });
    expect(b.account_data.vehicle.license_plate).to.be.a('string'); // the rest of the document is merged
    // the existing entry is untouched
    const again = (await t.request('GET', `/title/${a.entryId}`, { key })).body;
    expect(again.attachment).to.deep.equal([]);
  });

  it('lists a file of several documents once per document, under one doc_id, and merges each by its type', async () => {
    const { key } = await t.newOrg();
    const packet = files.add('packet.pdf', await joinPdfs([TITLE, 'dl-a-0-digital', PAYOFF]));
    const e = await createAndWait({ attachments: [packet] }, key);
    expect(e.job_status).to.equal('complete');
    expect(e.attachment.map((a: any) => [a.display_name, a.document_type, a.part, a.page_numbers])).to.deep.equal([
      ['packet.pdf (page 1)', 'VEHICLE_TITLE', 1, [1]],
      ['packet.pdf (page 2)', 'DRIVER_LICENSE', 2, [2]],
      ['packet.pdf (page 3)', 'PAYOFF_LETTER', 3, [3]],
    ]);
    const docIds = new Set(e.attachment.map((a: any) => a.doc_id));
    expect(docIds.size).to.equal(1);
    expect(e.bdaJobs).to.deep.equal({ [[...docIds][0] as string]: 'complete' });
    // one original, an extraction per document
    expect(new Set(e.attachment.map((a: any) => a.store_key.split('?')[0])).size).to.equal(1);
    const lic = (await (await fetch(e.attachment[1].json_path)).json()) as any;
    expect(lic).to.include({ document_type: 'DRIVER_LICENSE', part: 2, document_count: 3 });
    expect(lic.fields.license_number).to.equal(corpusDoc('dl-a-0-digital').expected.license_number);
    // the title's VIN, and the payoff letter's amounts, reach the account data
    const title = corpusDoc(TITLE).truth as TitleTruth;
    expect(e.VIN).to.equal(title.vehicle.vin);
    expect(e.account_data.loan?.payoff_amount).to.equal(Number(corpusDoc(PAYOFF).expected.payoff_amount));
    // posted again: read again, still listed once per document
    const again = await createAndWait(
      { attachments: [packet], account_data: { vehicle: { vin: title.vehicle.vin } } },
      key,
    );
    expect(again.entryId).to.equal(e.entryId);
    expect(again.attachment).to.have.length(3);
  });

  it('reads a document again when the same URL is posted again, without listing it twice', async () => {
    const { key } = await t.newOrg();
    const first = await createAndWait({ attachments: [file(PAYOFF)] }, key);
    const payoffVin = (corpusDoc(PAYOFF).truth as { vehicle: { vin: string } }).vehicle.vin;
    expect(first.VIN).to.equal(payoffVin);
    // the same VIN: this create updates the first entry (docs/decisions.md)
    const e = await createAndWait(
      { attachments: [file(PAYOFF), file('title-pa-0-digital')], account_data: { vehicle: { vin: payoffVin } } },
      key,
    );
    expect(e.entryId).to.equal(first.entryId);
    expect(e.attachment.map((x: any) => x.document_type)).to.deep.equal(['PAYOFF_LETTER', 'VEHICLE_TITLE']);
    expect(Object.keys(e.bdaJobs)).to.have.length(2);
    // the title shows another VIN: the client's VIN stays, the disagreement is recorded
    expect(e.VIN).to.equal(payoffVin);
    expect(e.account_discrepancies.items.map((i: any) => i.field_path)).to.include('/vehicle/vin');
  });
});

describe('ocr stage limits', function () {
  this.timeout(120_000);
  let files: FileServer;
  let t: TestEngine;
  const file = (id: string) => `${files.url}/files/${corpusDoc(id).file}`;

  before(async () => {
    files = await startFileServer();
    t = await startTestEngine({
      config: {
        stages: ['intake', 'ocr'],
        allowHosts: ['127.0.0.1'],
        log: { level: 'warn' },
        plugins: { ocr: { maxDocumentBytes: 200_000, maxDocuments: 2, maxRedirects: 2 } },
      },
    });
  });
  after(async () => {
    await t?.stop();
    await files?.close();
  });

  async function run(attachments: string[]): Promise<any> {
    const res = await t.request('POST', '/title', { body: { attachments } });
    return eventually(
      async () => {
        const g = (await t.request('GET', `/title/${res.body.entryId}`)).body;
        return g.job_status === 'complete' ? g : null;
      },
      { tries: 1200, everyMs: 50 },
    );
  }

  it('stops a download over the size limit (declared or streamed); stores at most maxDocuments, a rejected one taking no place', async () => {
    const big = corpusDoc('title-ca-0-degraded'); // about 1 MB
    const e = await run([
      file(PAYOFF),
      `${files.url}/files/${big.file}`,
      `${files.url}/stream/5000000`,
      file(TITLE),
      file('reg-card-0-digital'),
    ]);
    const byUrl = Object.fromEntries(e.attachment_errors.map((x: any) => [x.url.replace(files.url, ''), x]));
    expect(byUrl[`/files/${big.file}`].code).to.equal('FETCH_TOO_LARGE');
    expect(byUrl[`/files/${big.file}`].reason).to.match(/over the 0\.2 MB limit/);
    expect(byUrl['/stream/5000000'].code).to.equal('FETCH_TOO_LARGE');
    expect(e.attachment.map((a: any) => a.document_type)).to.deep.equal(['PAYOFF_LETTER', 'VEHICLE_TITLE']);
    expect(byUrl[`/files/${corpusDoc('reg-card-0-digital').file}`].code).to.equal('TOO_MANY_DOCUMENTS');
  });

  it('follows redirects up to the limit', async () => {
    const e = await run([
      `${files.url}/redirect/2/${corpusDoc(PAYOFF).file}`,
      `${files.url}/redirect/3/${corpusDoc(PAYOFF).file}`,
    ]);
    expect(e.attachment).to.have.length(1);
    expect(e.attachment[0].display_name).to.equal(corpusDoc(PAYOFF).file);
    expect(e.attachment_errors[0].code).to.equal('FETCH_TOO_MANY_REDIRECTS');
  });

  it('refuses an option it does not know at start-up', async () => {
    const { createEngine } = await import('../../index.js');
    let err: Error | undefined;
    try {
      await createEngine({ dataDir: t.dataDir, stages: ['intake', 'ocr'], plugins: { ocr: { maxDocumentSize: 1 } } });
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).to.match(/plugins\.ocr: .*maxDocumentSize/);
  });
});

describe('ocr stage progress in bdaJobs', function () {
  this.timeout(120_000);
  let files: FileServer;
  let t: TestEngine;

  before(async () => {
    files = await startFileServer();
    t = await startTestEngine({
      config: {
        stages: ['intake', 'ocr'],
        allowHosts: ['127.0.0.1'],
        log: { level: 'silent' },
        workers: { maxAttempts: 1 },
        plugins: { ocr: { parallelDocuments: 1, stageTimeoutMs: 4000 } },
      },
    });
  });
  after(async () => {
    await t?.stop();
    await files?.close();
  });

  const get = async (id: string) => (await t.request('GET', `/title/${id}`)).body;
  const docIdOf = (e: any, name: string) => e.attachment.find((a: any) => a.display_name === name)?.doc_id;

  it('shows each document queued, then processing, then how it ended, while the job runs', async () => {
    const first = corpusDoc(PAYOFF).file;
    const second = corpusDoc(TITLE).file;
    const res = await t.request('POST', '/title', {
      body: { attachments: [`${files.url}/held/${first}`, `${files.url}/files/${second}`] },
    });
    expect(res.status).to.equal(200);
    const id = res.body.entryId;
    // one document at a time: the first is being fetched (held by the server), the second waits its turn
    const during = await eventually(
      async () => {
        const e = await get(id);
        const statuses = Object.values(e.bdaJobs ?? {});
        return statuses.includes('processing') && statuses.includes('queued') ? e : null;
      },
      { tries: 400, everyMs: 25, what: 'a document processing and one queued' },
    );
    expect(during.job_status).to.equal('input_parsing');
    expect(Object.values(during.bdaJobs).sort()).to.deep.equal(['processing', 'queued']);
    expect(during.attachment).to.deep.equal([]);
    files.release(first);
    const done = await eventually(
      async () => {
        const e = await get(id);
        return e.job_status === 'complete' ? e : null;
      },
      { tries: 1200, everyMs: 50, what: 'job complete' },
    );
    expect(done.bdaJobs[docIdOf(done, first)]).to.equal('complete');
    expect(done.bdaJobs[docIdOf(done, second)]).to.equal('complete');
    expect(Object.keys(done.bdaJobs)).to.have.length(2);
  });

  it('turns documents still queued or processing into failed when the job fails for good in the stage', async () => {
    const held = corpusDoc('reg-card-0-digital').file;
    const res = await t.request('POST', '/title', {
      body: {
        attachments: [`${files.url}/held/${held}`, `${files.url}/files/${corpusDoc('title-pa-0-digital').file}`],
      },
    });
    // never released: the stage runs out of time (stageTimeoutMs) with one document processing and one queued
    const e = await eventually(
      async () => {
        const g = await get(res.body.entryId);
        return g.job_status === 'error' ? g : null;
      },
      { tries: 600, everyMs: 50, what: 'job error' },
    );
    expect(e.job_error.stage).to.equal('ocr');
    expect(Object.values(e.bdaJobs)).to.deep.equal(['failed', 'failed']);
    files.release(held);
  });
});

describe('ocr stage in the default pipeline', function () {
  this.timeout(120_000);
  let files: FileServer;
  let t: TestEngine;

  before(async () => {
    files = await startFileServer();
    t = await startTestEngine({ config: { allowHosts: ['127.0.0.1'], log: { level: 'warn' } } });
  });
  after(async () => {
    await t?.stop();
    await files?.close();
  });

  it('runs right after intake; a VIN found in a document is decoded in the same job', async () => {
    expect(t.engine.stages.map((s) => s.name).slice(0, 3)).to.deep.equal(['intake', 'ocr', 'vin-decode']);
    const doc = corpusDoc('title-oh-0-digital');
    const res = await t.request('POST', '/title', { body: { attachments: [`${files.url}/files/${doc.file}`] } });
    const e = await eventually(
      async () => {
        const g = (await t.request('GET', `/title/${res.body.entryId}`)).body;
        return g.job_status === 'complete' || g.job_status === 'error' ? g : null;
      },
      { tries: 1200, everyMs: 50 },
    );
    expect(e.job_status, JSON.stringify(e.job_error)).to.equal('complete');
    expect(e.VIN).to.equal((doc.truth as TitleTruth).vehicle.vin);
    expect(e.vin_decode?.check_digit_valid).to.equal(true);
  });
});

describe('ocr stage with enrichment after it', function () {
  this.timeout(120_000);
  let files: FileServer;
  let t: TestEngine;

  before(async () => {
    files = await startFileServer();
    t = await startTestEngine({ config: { allowHosts: ['127.0.0.1'], log: { level: 'warn' } } });
  });
  after(async () => {
    await t?.stop();
    await files?.close();
  });

  it("keeps the disagreement with the client's data when the enrichment stages reconcile afterwards", async () => {
    const doc = corpusDoc('title-oh-0-digital');
    const truth = doc.truth as TitleTruth;
    const res = await t.request('POST', '/title', {
      body: {
        attachments: [`${files.url}/files/${doc.file}`],
        account_data: { vehicle: { vin: truth.vehicle.vin, make: 'ACURA' } },
      },
    });
    const e = await eventually(
      async () => {
        const g = (await t.request('GET', `/title/${res.body.entryId}`)).body;
        return g.job_status === 'complete' ? g : null;
      },
      { tries: 1200, everyMs: 50 },
    );
    expect(e.vin_decode).to.be.an('object'); // vin-decode reconciled after the ocr stage
    const d = e.account_discrepancies.items.find((i: any) => i.field_path === '/vehicle/make');
    expect(d.observations.map((o: any) => [o.from.kind, o.value])).to.deep.equal([
      ['submitted_account_data', 'ACURA'],
      ['document_upload', truth.vehicle.make],
    ]);
    expect(e.account_matches.items.map((i: any) => i.field_path)).to.include('/vehicle/vin');
  });
});
