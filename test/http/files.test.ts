import { expect } from 'chai';
import type { StageContext, StagePlugin } from '../../core/index.js';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountData, createEntry, expectError, makeVin, storedRow, waitForStatus } from './support.js';

const PDF = Buffer.from('%PDF-1.4\n% test form\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** Writes two objects under the entry's storeIndex and points entry fields at them, as a forms stage would. */
class TestFormsStage implements StagePlugin {
  readonly name = 'test-stage';
  readonly phase = 'generating_forms' as const;
  readonly after = ['intake'];
  appliesTo(): boolean {
    return true;
  }
  async run(ctx: StageContext): Promise<void> {
    ctx.entry.form_title_application = await ctx.objects.put('forms/title_application.pdf', PDF);
    const shot = await ctx.objects.put('pulls/portal_screenshot.png', PNG);
    ctx.entry.forms_poa = [
      {
        signer_name: 'Jane Q Borrower',
        signer_id: 's1',
        form: ctx.entry.form_title_application,
        form_generic: 'not-a-key',
      },
    ];
    ctx.entry.portal_screenshot = shot;
  }
}

async function download(url: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

async function downloadJson(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

for (const dialect of DIALECTS) {
  describe(`HTTP: presigned object URLs (${dialect})`, () => {
    let t: TestEngine;
    let id: string;
    let entry: any;
    let storeIndex: string;

    before(async () => {
      t = await startTestEngine({
        dialect,
        config: { stages: ['intake', 'test-stage'] },
        options: { stages: { 'test-stage': TestFormsStage } },
      });
      id = await createEntry(t, { account_data: accountData(makeVin()) });
      entry = await waitForStatus(t, id);
      storeIndex = entry.storeIndex;
    });
    after(async () => {
      await t?.stop();
    });

    const URL_RE = /^(http:\/\/[^/]+)\/files\/([^?]+)\?expires=(\d+)&signature=([0-9a-f]{64})$/;

    it('GET returns object keys as /files/<key>?expires=&signature= URLs on the daemon that download the bytes', async () => {
      const m = URL_RE.exec(entry.form_title_application);
      expect(m, entry.form_title_application).to.not.equal(null);
      expect(decodeURIComponent(m![2]!)).to.equal(`${storeIndex}/forms/title_application.pdf`);
      expect(Number(m![3])).to.be.within(Date.now() / 1000 + 3500, Date.now() / 1000 + 3700);
      const res = await download(entry.form_title_application);
      expect(res.status).to.equal(200);
      expect(res.body.equals(PDF)).to.equal(true);
      expect(res.headers.get('content-type')).to.equal('application/pdf');
      expect(res.headers.get('cache-control')).to.equal('private, no-store');
      // nested keys are presigned too, other strings stay as they are
      expect(entry.forms_poa[0].form).to.match(URL_RE);
      expect(entry.forms_poa[0].form_generic).to.equal('not-a-key');
      const shot = await download(entry.portal_screenshot);
      expect(shot.status).to.equal(200);
      expect(shot.body.equals(PNG)).to.equal(true);
      expect(shot.headers.get('content-type')).to.equal('image/png');
    });

    it('the stored entry holds keys, not URLs; list items are presigned like GET', async () => {
      const row = await storedRow(t, id);
      const doc = JSON.parse(row.doc);
      expect(doc.form_title_application).to.equal(`${storeIndex}/forms/title_application.pdf`);
      expect(row.doc).to.not.include('signature=');
      const list = await t.request('GET', '/title');
      const item = list.body.items.find((e: { entryId: string }) => e.entryId === id);
      expect(item.form_title_application).to.match(URL_RE);
      expect((await download(item.form_title_application)).body.equals(PDF)).to.equal(true);
    });

    it('an object put with engine.objects.put is served through engine.objects.presign', async () => {
      const key = `${storeIndex}/extra/report.json`;
      await t.engine.objects.put(key, '{"ok":true}');
      const res = await downloadJson(t.engine.objects.presign(key, 60));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ ok: true });
    });

    it('a tampered signature, a tampered key, a changed expiry, a missing signature and an expired URL are 403', async () => {
      const url = entry.form_title_application as string;
      const m = URL_RE.exec(url)!;
      const [, origin, path, expires, sig] = m as unknown as [string, string, string, string, string];
      const flipped = sig.slice(0, 30) + (sig[30] === 'a' ? 'b' : 'a') + sig.slice(31);
      const bad = [
        `${origin}/files/${path}?expires=${expires}&signature=${flipped}`,
        `${origin}/files/${path.replace('title_application.pdf', 'title_applicatiom.pdf')}?expires=${expires}&signature=${sig}`,
        `${origin}/files/${encodeURI(`${storeIndex}/pulls/portal_screenshot.png`)}?expires=${expires}&signature=${sig}`,
        `${origin}/files/${path}?expires=${Number(expires) + 86_400}&signature=${sig}`,
        `${origin}/files/${path}?expires=${expires}`,
        `${origin}/files/${path}`,
        `${origin}/files/${path}?expires=${expires}&signature=${sig.toUpperCase()}`,
        `${origin}/files/${path}?expires=abc&signature=${sig}`,
        t.engine.objects.presign(`${storeIndex}/forms/title_application.pdf`, -1),
        t.engine.objects.presign(`${storeIndex}/forms/title_application.pdf`, -3600),
      ];
      for (const u of bad) {
        const res = await downloadJson(u);
        try {
          expectError(res, 403);
        } catch (e) {
          (e as Error).message = `${u}: ${(e as Error).message}`;
          throw e;
        }
      }
      // the untouched URL still works
      expect((await download(url)).status).to.equal(200);
    });

    it('a client string under the storeIndex that is no valid object key is returned as it is (GET, PATCH and list keep working)', async () => {
      const other = await createEntry(t, { account_data: accountData(makeVin()) });
      const e = await waitForStatus(t, other);
      const odd = [
        `${e.storeIndex}/../../${storeIndex}/forms/title_application.pdf`,
        `${e.storeIndex}//x`,
        `${e.storeIndex}/a b`,
      ];
      const patched = await t.request('PATCH', `/title/${other}`, {
        body: { account_data: { txn_quick_reference: odd[0], vehicle: { color: odd[1], model: odd[2] } } },
      });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.account_data.txn_quick_reference).to.equal(odd[0]);
      expect(patched.body.account_data.vehicle.color).to.equal(odd[1]);
      expect(patched.body.account_data.vehicle.model).to.equal(odd[2]);
      const got = await t.request('GET', `/title/${other}`);
      expect(got.status).to.equal(200);
      expect(got.body.account_data.txn_quick_reference).to.equal(odd[0]);
      const list = await t.request('GET', '/title');
      expect(list.status).to.equal(200);
      expect(list.body.items.map((i: { entryId: string }) => i.entryId)).to.include.members([id, other]);
    });

    it('a valid URL of an object that does not exist is 404', async () => {
      expectError(await downloadJson(t.engine.objects.presign(`${storeIndex}/forms/none.pdf`, 60)), 404);
    });

    it("after DELETE the entry's objects are gone (its old URLs are 404)", async () => {
      const other = await createEntry(t, { account_data: accountData(makeVin()) });
      const e = await waitForStatus(t, other);
      expect((await download(e.form_title_application)).status).to.equal(200);
      expect((await t.request('DELETE', `/title/${other}`)).status).to.equal(200);
      expectError(await downloadJson(e.form_title_application), 404);
    });
  });
}
