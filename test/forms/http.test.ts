/**
 * Forms end to end through the HTTP API: an entry is created, the job
 * completes with its forms; every form member is a presigned URL that
 * downloads a PDF; POST /title/{id}/forms regenerates synchronously and bumps
 * `form_updates`; downloads through presigned URLs are counted.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { FormsStage } from '../../plugins/forms/index.js';
import { FORM_CATALOG } from '../../plugins/forms/layouts/index.js';
import { parseFormsOptions } from '../../plugins/forms/options.js';
import { parseIndices } from '../../plugins/forms/packet.js';
import { TemplateStore } from '../../plugins/forms/pdf/template.js';
import { FIXTURE_VIN, fixtureEntry } from '../support/fixtures.js';
import { FORM_KEYS, SIGNER_FORM_KEYS } from '../../states/types.js';
import { qpdfCheck } from '../support/tester.js';
import { eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { createEntry, expectError, waitForStatus } from '../http/support.js';

describe('forms: end to end through the HTTP API', function () {
  this.timeout(120_000);
  let t: TestEngine;
  let dir = '';
  let id = '';
  let first: any;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'titled-forms-http-'));
    t = await startTestEngine({ config: { stages: ['intake', 'forms'] } });
    id = await createEntry(t, { account_data: fixtureEntry('TX', 'full').account_data });
    first = await waitForStatus(t, id);
  });
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const stage = () => t.engine.plugins.find((p) => p.name === 'forms') as FormsStage;
  const download = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  };

  it('generates the forms in the pipeline: every form member a presigned URL of a PDF', async () => {
    expect(first.forms_status).to.equal('generated');
    expect(first.VIN).to.equal(FIXTURE_VIN);
    const presigned = /^https?:\/\/[^/]+\/files\/.+\?expires=\d+&signature=[0-9a-f]{64}$/;
    const singles = FORM_KEYS.filter((k) => first[k] !== undefined);
    expect(singles).to.include.members([
      'form_instructions',
      'form_title_application',
      'form_odometer_disclosure',
      'form_payoff_authorization',
    ]);
    for (const k of [...singles, 'form_final_packet']) {
      expect(first[k], k).to.match(presigned);
      const res = await download(first[k]);
      expect(res.status, k).to.equal(200);
      expect(res.type, k).to.equal('application/pdf');
      expect(res.body.subarray(0, 5).toString(), k).to.equal('%PDF-');
      const file = join(dir, `${k}.pdf`);
      writeFileSync(file, res.body);
      expect(await qpdfCheck(file), k).to.equal('');
    }
    for (const k of SIGNER_FORM_KEYS.filter((x) => first[x] !== undefined)) {
      expect(first[k], k).to.be.an('array').that.is.not.empty;
      for (const item of first[k]) {
        expect(Object.keys(item).sort(), k).to.deep.equal(['form', 'form_generic', 'signer_id', 'signer_name']);
        expect(item.form).to.match(presigned);
        expect(item.form_generic).to.match(presigned);
        expect((await download(item.form)).body.subarray(0, 5).toString()).to.equal('%PDF-');
      }
    }
    expect(first.forms_poa.map((p: any) => p.signer_name)).to.deep.equal([
      'Jane Q Borrower',
      'Carlos Added',
      'Robert T Coowner',
    ]);
  });

  it('combines the forms into the final packet; the indices cover its pages in order', async () => {
    const packet = await PDFDocument.load((await download(first.form_final_packet)).body);
    const ranges = parseIndices(first.final_packet_indices);
    expect(ranges[0]).to.deep.include({ key: 'form_instructions', first: 1 });
    expect(ranges[ranges.length - 1]!.last).to.equal(packet.getPageCount());
    ranges.forEach((r, i) => {
      if (i > 0) expect(r.first).to.equal(ranges[i - 1]!.last + 1);
    });
    let sum = 0;
    for (const r of ranges) {
      const m = /^(\w+?)(?:\[(\d+)\])?$/.exec(r.key)!;
      const url = m[2] === undefined ? first[m[1]!] : first[m[1]!][Number(m[2])].form;
      sum += (await PDFDocument.load((await download(url)).body)).getPageCount();
    }
    expect(sum).to.equal(packet.getPageCount());
  });

  it('fills the official Texas 130-U when the template folder has it', async function () {
    const res = await download(first.form_title_application);
    const doc = await PDFDocument.load(res.body);
    const fields = doc
      .getForm()
      .getFields()
      .map((f) => f.getName());
    if (!fields.length) return this.skip(); // no template folder: drawn
    expect(doc.getForm().getTextField('1 Vehicle Identification Number').getText()).to.equal(FIXTURE_VIN);
  });

  it('records each generation in form_updates; POST /title/{id}/forms regenerates synchronously', async () => {
    const metaUrl = first.form_updates.form_title_application;
    const before = JSON.parse((await download(metaUrl)).body.toString('utf8'));
    expect(before).to.deep.include({ form_key: 'form_title_application', generation: 1, state: 'TX', entryId: id });
    // the official 130-U when a template folder has it (../shared/forms beside the checkout), else the drawn layout
    const official = new TemplateStore(parseFormsOptions({}).templateDirs).locate('tx/130-U.pdf');
    expect(before.files[0]).to.include({ source: official ? 'template' : 'drawn', variant: 'state' });
    const res = await t.request('POST', `/title/${id}/forms`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ entryId: id });
    const after = (await t.request('GET', `/title/${id}`)).body;
    expect(after.job_status).to.equal('complete');
    expect(after.forms_status).to.equal('generated');
    const meta = JSON.parse((await download(after.form_updates.form_title_application)).body.toString('utf8'));
    expect(meta.generation).to.equal(2);
    expect(meta.trigger).to.equal('forms');
    expect(meta.history.map((h: any) => h.generation)).to.deep.equal([2, 1]);
    expect(Object.keys(after.form_updates)).to.include.members([
      'form_final_packet',
      'forms_poa',
      'form_title_application',
    ]);
    const events = (await t.engine.outbox.forEntry(id))
      .map((e) => e.name)
      .filter((n) => n.startsWith('title.forms_status.'));
    expect(events).to.deep.equal(['title.forms_status.generated']); // a second 'generated' is no move, no event
  });

  it('counts downloads through presigned URLs in form_downloads (metadata reads do not count)', async () => {
    await stage().downloads.idle();
    const before = (await t.request('GET', `/title/${id}`)).body;
    const base = before.form_downloads;
    expect(base.form_title_application).to.be.at.least(1);
    await download(before.form_title_application);
    await download(before.form_title_application);
    await download(before.forms_poa[1].form_generic);
    await download(before.form_updates.form_title_application);
    await stage().downloads.idle();
    const after = await eventually(
      async () => {
        const e = (await t.request('GET', `/title/${id}`)).body;
        return e.form_downloads.form_title_application === base.form_title_application + 2 ? e : null;
      },
      { what: 'downloads counted' },
    );
    expect(after.form_downloads.forms_poa).to.equal(base.forms_poa + 1);
    expect(after.form_downloads.form_final_packet).to.equal(base.form_final_packet);
  });

  it('skipped_no_state for an entry without a state; 404 for an unknown entry', async () => {
    const ad = fixtureEntry('TX', 'ohv').account_data;
    delete ad.vehicle!.title!.issuing_state;
    delete ad.sale!.state;
    for (const b of ad.loan!.borrower!) delete b.addr;
    ad.vehicle!.vin = '1M8GDM9AXKP042788';
    const other = await createEntry(t, { account_data: ad });
    const e = await waitForStatus(t, other);
    expect(e.forms_status).to.equal('skipped_no_state');
    expect(e.forms_report.reason).to.equal('the entry has no state');
    expect(e.form_final_packet).to.equal(undefined);
    expect((await t.request('POST', `/title/${other}/forms`)).body).to.deep.equal({ entryId: other });
    expectError(await t.request('POST', '/title/00000000-0000-0000-0000-000000000000/forms'), 404);
  });

  it('error when a form fails to render: the others are kept, the failure reported', async () => {
    const catalog = FORM_CATALOG as Record<string, { layout: { title: string; build: unknown } }>;
    const saved = catalog.form_ohv_declaration!.layout;
    catalog.form_ohv_declaration!.layout = {
      title: saved.title,
      build: () => {
        throw new Error('layout exploded');
      },
    };
    try {
      const ad = fixtureEntry('WY', 'ohv').account_data;
      ad.vehicle!.vin = '1GNEK13ZX3R298984';
      const other = await createEntry(t, { account_data: ad });
      const e = await waitForStatus(t, other);
      expect(e.forms_status).to.equal('error');
      expect(e.forms_report.errors).to.deep.equal([{ form: 'form_ohv_declaration', message: 'layout exploded' }]);
      expect(e.form_ohv_declaration).to.equal(undefined);
      expect(e.form_title_application).to.be.a('string');
      expect(parseIndices(e.final_packet_indices).map((r) => r.key)).to.not.include('form_ohv_declaration');
    } finally {
      catalog.form_ohv_declaration!.layout = saved;
    }
  });

  it('answers 501 when no enabled stage serves forms', async () => {
    const bare = await startTestEngine({ config: { stages: ['intake'] } });
    try {
      const other = await createEntry(bare, { account_data: { vehicle: { vin: FIXTURE_VIN } } });
      expectError(await bare.request('POST', `/title/${other}/forms`), 501);
    } finally {
      await bare.stop();
    }
  });
});
