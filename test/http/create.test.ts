import { expect } from 'chai';
import type { JobInput, StageContext, StagePlugin, TitleEntry } from '../../core/index.js';
import { DIALECTS, startTestEngine, VALID_VIN, type TestEngine } from '../helpers/engine.js';
import {
  accountData,
  createEntry,
  expectError,
  jobInputs,
  makeVin,
  REQUIRED_MEMBERS,
  waitForStatus,
  withWrongCheckDigit,
  CORE_ONLY,
} from './support.js';

/** The job inputs the pipeline ran with, by entry id (recorded by the probe stage). */
const seen = new Map<string, JobInput[]>();

/** A stage that records the job input it runs with, changing nothing. */
class ProbeStage implements StagePlugin {
  readonly name = 'probe';
  readonly phase = 'pending' as const;
  readonly after = ['intake'];
  appliesTo(): boolean {
    return true;
  }
  async run(ctx: StageContext): Promise<void> {
    const list = seen.get(ctx.entry.entryId) ?? [];
    list.push(structuredClone(ctx.job) as JobInput);
    seen.set(ctx.entry.entryId, list);
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

for (const dialect of DIALECTS) {
  describe(`HTTP: POST /title (${dialect})`, () => {
    /** Workers running, with the probe stage. */
    let t: TestEngine;
    /** Workers disabled: entries stay exactly as created and jobs stay queued. */
    let q: TestEngine;

    before(async () => {
      t = await startTestEngine({
        dialect,
        config: { stages: ['intake', 'probe'] },
        options: { stages: { probe: ProbeStage } },
      });
      q = await startTestEngine({ dialect, config: { ...CORE_ONLY, workers: { enabled: false } } });
    });
    after(async () => {
      await t?.stop();
      await q?.stop();
    });

    it('structured body: 200 {entryId, job_status: "pending"}', async () => {
      const res = await t.request('POST', '/title', { body: { account_data: accountData(makeVin()) } });
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body).sort()).to.deep.equal(['entryId', 'job_status']);
      expect(res.body.entryId).to.match(UUID_RE);
      expect(res.body.job_status).to.equal('pending');
    });

    it('every required member of the title entry is present right after creation', async () => {
      const vin = makeVin();
      const before = Date.now();
      const id = await createEntry(q, { account_data: accountData(vin) });
      const res = await q.request('GET', `/title/${id}`);
      expect(res.status).to.equal(200);
      const e = res.body as TitleEntry;
      for (const m of REQUIRED_MEMBERS) expect(e, `member ${m}`).to.have.property(m);
      expect(e.website).to.equal(q.org.name);
      expect(e.entryId).to.equal(id);
      expect(e.userId).to.equal(q.org.keyId);
      expect(e.job_status).to.equal('pending');
      expect(e.storeIndex)
        .to.be.a('string')
        .and.match(new RegExp(`/${id}$`));
      expect(Date.parse(e.createdAt)).to.be.within(before - 1000, Date.now() + 1000);
      expect(e.VIN).to.equal(vin);
      expect(e.state).to.equal('');
      expect(e.Borrower).to.equal('');
      expect(e.lenderLoanId).to.equal('');
      expect(e.attachment).to.deep.equal([]);
      expect(e.loanData).to.deep.equal({});
      expect(e.account_data).to.deep.equal({});
      expect(e.account_status).to.equal('originated');
      expect(e.tracking_url_provider).to.equal('');
    });

    it('after processing, VIN, state, Borrower and lenderLoanId come from account data and loanData mirrors account_data', async () => {
      const vin = makeVin();
      const raw = `${vin.slice(0, 5).toLowerCase()}-${vin.slice(5, 11)} ${vin.slice(11)}`;
      const data = accountData(raw, { state: 'FL', borrower: 'Maria Lopez', loanId: 'LOAN-77' });
      const id = await createEntry(t, { account_data: data });
      const e = await waitForStatus(t, id);
      expect(e.VIN).to.equal(vin);
      expect(e.state).to.equal('FL');
      expect(e.Borrower).to.equal('Maria Lopez');
      expect(e.lenderLoanId).to.equal('LOAN-77');
      const expected = structuredClone(data) as { vehicle: { vin: string } };
      expected.vehicle.vin = vin;
      expect(e.account_data).to.deep.equal(expected);
      expect(e.loanData).to.deep.equal(e.account_data);
      expect(e.vin_check_digit_valid).to.equal(true);
      for (const m of REQUIRED_MEMBERS) expect(e, `member ${m}`).to.have.property(m);
    });

    it('Borrower falls back to the name parts, and state to the sale state', async () => {
      const vin = makeVin();
      const id = await createEntry(t, {
        account_data: {
          vehicle: { vin },
          sale: { state: 'OH' },
          loan: { borrower: [{ name_first: 'Ann', name_middle: 'B', name_last: 'Cole', name_suffix: 'Jr' }] },
        },
      });
      const e = await waitForStatus(t, id);
      expect(e.Borrower).to.equal('Ann B Cole Jr');
      expect(e.state).to.equal('OH');
      expect(e.lenderLoanId).to.equal('');
    });

    it('a raw JSON array of document URLs is the legacy shorthand for {attachments}', async () => {
      const urls = ['https://docs.example.test/title-front.pdf', 'https://docs.example.test/registration.png'];
      const res = await q.request('POST', '/title', { body: urls });
      expect(res.status).to.equal(200);
      expect(res.body.job_status).to.equal('pending');
      const inputs = await jobInputs(q, res.body.entryId);
      expect(inputs).to.deep.equal([{ reasons: ['create'], attachments: urls }]);
      const e = await q.request('GET', `/title/${res.body.entryId}`);
      expect(e.status).to.equal(200);
      expect(e.body.account_data).to.deep.equal({});
      expect(e.body.VIN).to.equal('');
    });

    it('a raw array holding something other than URLs is 400', async () => {
      expectError(await q.request('POST', '/title', { body: ['not a url'] }), 400, { match: /attachments\.0/ });
      expectError(await q.request('POST', '/title', { body: [{ url: 'https://x.test/a.pdf' }] }), 400, {
        match: /attachments\.0/,
      });
    });

    it('the legacy organization field and unknown top-level members are ignored', async () => {
      const victim = await q.newOrg();
      const vin = makeVin();
      const res = await q.request('POST', '/title', {
        body: {
          account_data: accountData(vin),
          website: victim.name,
          organization: victim.name,
          org: victim.name,
          orgId: 'x',
          foo: { bar: 1 },
          job_status: 'complete',
        },
      });
      expect(res.status).to.equal(200);
      expect(res.body.job_status).to.equal('pending');
      const e = await q.request('GET', `/title/${res.body.entryId}`);
      expect(e.body.website).to.equal(q.org.name);
      expect(e.body.job_status).to.equal('pending');
      expect(e.body).to.not.have.property('foo');
      const inputs = await jobInputs(q, res.body.entryId);
      expect(Object.keys(inputs[0]).sort()).to.deep.equal(['account_data', 'reasons']);
      const theirs = await q.request('GET', `/title?vin=${vin}`, { key: victim.key });
      expect(theirs.body.items).to.deep.equal([]);
    });

    it('a second create of the same VIN answers a duplicate pointer id: pending without a sync flag, enriching with one', async () => {
      const vin = makeVin();
      const first = await createEntry(q, { account_data: accountData(vin) });
      const again = await q.request('POST', '/title', { body: { account_data: { vehicle: { vin } } } });
      expect(again.status).to.equal(200);
      expect(again.body.entryId).to.not.equal(first);
      expect(again.body).to.deep.equal({ entryId: again.body.entryId, job_status: 'pending' });
      for (const flag of ['sync_nmvtis', 'sync_public', 'sync_private']) {
        const synced = await q.request('POST', '/title', {
          body: { account_data: { vehicle: { vin } }, [flag]: true },
        });
        expect(synced.status).to.equal(200);
        expect(synced.body, flag).to.deep.equal({ entryId: synced.body.entryId, job_status: 'enriching' });
        expect(synced.body.entryId).to.not.equal(first);
      }
      // a flag set to false is no sync flag
      const falsy = await q.request('POST', '/title', {
        body: { account_data: { vehicle: { vin } }, sync_nmvtis: false },
      });
      expect(falsy.body.job_status).to.equal('pending');
      const pointer = await q.request('GET', `/title/${again.body.entryId}`);
      expect(pointer.status).to.equal(200);
      expect(pointer.body.entryId).to.equal(first);
      const canonical = await q.request('GET', `/title/${first}`);
      expect(pointer.body).to.deep.equal(canonical.body);
      // one entry; the requests merged into its one queued job
      const list = await q.request('GET', `/title?vin=${vin}`);
      expect(list.body.items.map((e: { entryId: string }) => e.entryId)).to.deep.equal([first]);
      const inputs = await jobInputs(q, first);
      expect(inputs).to.have.length(1);
      expect(inputs[0].reasons).to.deep.equal(['create', 'update']);
    });

    it('duplicate pointers resolve to the canonical entry after processing, with the merged account data', async () => {
      const vin = makeVin();
      const first = await createEntry(t, { account_data: accountData(vin, { loanId: 'L-1' }) });
      await waitForStatus(t, first);
      const again = await t.request('POST', '/title', {
        body: { account_data: { vehicle: { vin, color: 'Black' }, loan: { loan_id: 'L-2' } }, sync_nmvtis: true },
      });
      expect(again.body.job_status).to.equal('enriching');
      const e = await waitForStatus(t, again.body.entryId);
      expect(e.entryId).to.equal(first);
      expect(e.lenderLoanId).to.equal('L-2');
      expect(e.account_data.vehicle.color).to.equal('Black');
      expect(e.account_data.vehicle.make).to.equal('Honda');
    });

    it('concurrent creates of one VIN make one entry and a pointer for each other request', async () => {
      const vin = makeVin();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => t.request('POST', '/title', { body: { account_data: accountData(vin) } })),
      );
      for (const r of results) expect(r.status, JSON.stringify(r.body)).to.equal(200);
      const ids = results.map((r) => r.body.entryId as string);
      expect(new Set(ids).size).to.equal(8);
      const rows = await t.engine.db.query<{ id: string }>('SELECT id FROM entries WHERE vin = ?', [vin]);
      expect(rows).to.have.length(1);
      const canonical = rows[0]!.id;
      expect(ids).to.include(canonical);
      const pointers = await t.engine.db.query<{ id: string }>(
        'SELECT id FROM duplicate_pointers WHERE "canonicalId" = ?',
        [canonical],
      );
      expect(pointers.map((p) => p.id).sort()).to.deep.equal(ids.filter((i) => i !== canonical).sort());
      const e = await waitForStatus(t, canonical);
      for (const id of ids) expect((await t.request('GET', `/title/${id}`)).body.entryId).to.equal(canonical);
      expect(e.VIN).to.equal(vin);
    });

    it('rule 2: sync_public or sync_private without an issuing state enables sync_nmvtis (job input)', async () => {
      const noState = { vehicle: { vin: makeVin() } };
      const a = await createEntry(q, { account_data: noState, sync_public: true });
      expect(await jobInputs(q, a)).to.deep.equal([
        { reasons: ['create'], account_data: noState, sync_public: true, sync_nmvtis: true },
      ]);

      const b = await createEntry(q, {
        account_data: { vehicle: { vin: makeVin() } },
        sync_private: true,
        dppa_exemption: 'DPPA-3',
      });
      const [bi] = await jobInputs(q, b);
      expect(bi).to.include({ sync_private: true, sync_nmvtis: true, dppa_exemption: 'DPPA-3' });
      expect((await q.request('GET', `/title/${b}`)).body.private_enrichment_pending).to.equal(true);

      // with an issuing state, nothing is added
      const withState = accountData(makeVin(), { state: 'GA' });
      const c = await createEntry(q, { account_data: withState, sync_public: true });
      expect(await jobInputs(q, c)).to.deep.equal([
        { reasons: ['create'], account_data: withState, sync_public: true },
      ]);

      // documents only (no account data at all): no issuing state either
      const d = await createEntry(q, { attachments: ['https://docs.example.test/t.pdf'], sync_public: true });
      expect((await jobInputs(q, d))[0]).to.include({ sync_public: true, sync_nmvtis: true });

      // sync_nmvtis alone is left as it is
      const e = await createEntry(q, { account_data: { vehicle: { vin: makeVin() } }, sync_nmvtis: true });
      const [ei] = await jobInputs(q, e);
      expect(ei).to.include({ sync_nmvtis: true });
      expect(ei).to.not.have.property('sync_public');
    });

    it('rule 2 on an update uses the issuing state of the existing entry', async () => {
      const vin = makeVin();
      const first = await createEntry(t, { account_data: accountData(vin, { state: 'NV' }) });
      await waitForStatus(t, first);
      const up = await t.request('POST', '/title', { body: { account_data: { vehicle: { vin } }, sync_public: true } });
      expect(up.body.job_status).to.equal('enriching');
      await waitForStatus(t, first);
      const last = seen.get(first)!.at(-1)!;
      expect(last.reasons).to.deep.equal(['update']);
      expect(last.sync_public).to.equal(true);
      expect(last).to.not.have.property('sync_nmvtis');

      const vin2 = makeVin();
      const second = await createEntry(t, { account_data: { vehicle: { vin: vin2 } } });
      await waitForStatus(t, second);
      await t.request('POST', '/title', { body: { account_data: { vehicle: { vin: vin2 } }, sync_private: true } });
      await waitForStatus(t, second);
      expect(seen.get(second)!.at(-1)).to.include({ sync_private: true, sync_nmvtis: true });
    });

    it('a VIN with a wrong check digit is accepted and flagged vin_check_digit_valid: false', async () => {
      const vin = withWrongCheckDigit(VALID_VIN);
      const res = await t.request('POST', '/title', { body: { account_data: accountData(vin) } });
      expect(res.status).to.equal(200);
      const e = await waitForStatus(t, res.body.entryId);
      expect(e.VIN).to.equal(vin);
      expect(e.vin_check_digit_valid).to.equal(false);
      const ok = await waitForStatus(t, await createEntry(t, { account_data: accountData(VALID_VIN) }));
      expect(ok.vin_check_digit_valid).to.equal(true);
    });

    it('a VIN with I, O or Q, of the wrong length, or with other characters is 400 and creates nothing', async () => {
      const good = makeVin();
      const bad = [
        `${good.slice(0, 3)}I${good.slice(4)}`,
        `${good.slice(0, 3)}O${good.slice(4)}`,
        `${good.slice(0, 3)}Q${good.slice(4)}`,
        good.slice(0, 16),
        `${good}1`,
        `${good.slice(0, 16)}*`,
        `${good.slice(0, 16)}_`,
      ];
      for (const vin of bad) {
        const res = await q.request('POST', '/title', { body: { account_data: { vehicle: { vin } } } });
        expectError(res, 400, { match: /account_data\.vehicle\.vin/ });
      }
      const rows = await q.engine.db.query('SELECT id FROM entries WHERE vin LIKE ?', [`${good.slice(0, 3)}%`]);
      expect(rows).to.deep.equal([]);
    });
  });
}
