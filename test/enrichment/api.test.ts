import { expect } from 'chai';
import { PDFDocument } from 'pdf-lib';
import { AccountDataSchema } from '../../core/index.js';
import { getAt } from '../../core/model/pointer.js';
import { DIALECTS, startTestEngine } from '../helpers/engine.js';
import {
  BORROWER,
  create,
  download,
  events,
  isPdf,
  isPng,
  settled,
  startEnrichmentEngine,
  vin,
  type EnrichmentEngine,
} from './support.js';
import { withMaintenanceWindows } from '../helpers/sandbox-env.js';

type Outcome = 'found' | 'not_found' | 'error' | 'unavailable';
const OUTCOMES: Outcome[] = ['found', 'not_found', 'error', 'unavailable'];
const FLAGS = { sync_nmvtis: ['nmvtis'], sync_public: ['public'], sync_private: ['state', 'portal'] } as const;
const FIELDS: Record<string, { pull: string; txn?: string; report?: string; screenshot?: string; last: string }> = {
  nmvtis: { pull: 'nmvtis_pull', txn: 'nmvtis_txn_id', report: 'nmvtis_report_pdf', last: 'nmvtis_last_fetch' },
  state: { pull: 'state_pull', txn: 'state_txn_id', report: 'state_report_pdf', last: 'state_last_fetch' },
  portal: { pull: 'portal_pull', screenshot: 'portal_screenshot', last: 'portal_last_fetch' },
  public: { pull: 'public_pull', txn: 'public_txn_id', report: 'public_report_pdf', last: 'public_last_fetch' },
};

function data(v: string, state: string | null = 'TX'): Record<string, unknown> {
  return {
    vehicle: { vin: v, ...(state ? { title: { issuing_state: state } } : {}) },
    loan: { loan_id: 'LN-1', borrower: [BORROWER] },
  };
}

/** Every string in the entry that is a presigned URL of this daemon. */
function urlsIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string' && /\/files\/.+\?expires=/.test(v)) out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => urlsIn(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => urlsIn(x, out));
  return out;
}

for (const dialect of DIALECTS) {
  describe(`enrichment through the API: sandbox providers (${dialect})`, function () {
    let t: EnrichmentEngine;
    before(async () => {
      t = await startEnrichmentEngine({ dialect });
    });
    after(async () => {
      await t?.stop();
    });

    for (const [flag, sources] of Object.entries(FLAGS)) {
      for (const outcome of OUTCOMES) {
        it(`${flag} -> ${sources.join(' + ')}: ${outcome} (statuses, events, files)`, async () => {
          const v = vin({ outcome });
          const id = await create(t, { account_data: data(v), [flag]: true });
          const e = await settled(t, id);
          expect(e.job_status).to.equal('complete');
          const names = await events(t, id);
          expect(names).to.not.include('title.data.not_found');
          expect(names).to.not.include('title.data.found');
          for (const s of sources) {
            const f = FIELDS[s]!;
            expect(e[`${s}_found_status`], s).to.equal(outcome);
            // pending was recorded by the request, then the outcome by the stage
            const pending = names.indexOf(`title.${s}_found_status.pending`);
            const settledAt = names.indexOf(`title.${s}_found_status.${outcome}`);
            expect(pending, `${s} pending event`).to.be.greaterThan(-1);
            expect(settledAt, `${s} ${outcome} event`).to.be.greaterThan(pending);
            if (outcome === 'found') {
              const pull = await download(e[f.pull]);
              expect(pull.status).to.equal(200);
              expect(pull.type).to.match(/application\/json/);
              expect(e[f.pull]).to.match(new RegExp(`/enrichment/${s}/[^/?]+-pull\\.json\\?`));
              const record = JSON.parse(pull.body.toString('utf8'));
              expect(AccountDataSchema.safeParse(record).success, 'the pull holds AccountData').to.equal(true);
              expect(record.vehicle.vin).to.equal(v);
              expect(e[f.last]).to.equal(t.clock.now().toISOString());
              if (f.txn) expect(e[f.txn]).to.match(new RegExp(`^SBX-${s.toUpperCase()}-[0-9A-F]{12}$`));
              if (f.report) {
                const pdf = await download(e[f.report]);
                expect(pdf.status).to.equal(200);
                expect(pdf.type).to.equal('application/pdf');
                expect(isPdf(pdf.body)).to.equal(true);
                const doc = await PDFDocument.load(pdf.body);
                expect(doc.getPageCount()).to.be.at.least(1);
                expect(doc.getTitle()).to.contain(v);
              }
              if (f.screenshot) {
                const png = await download(e[f.screenshot]);
                expect(png.type).to.equal('image/png');
                expect(isPng(png.body)).to.equal(true);
                expect(png.body.readUInt32BE(16), 'PNG width').to.equal(760);
              }
            } else {
              expect(e[f.pull], `${s} pull`).to.equal(undefined);
              if (f.report) expect(e[f.report]).to.equal(undefined);
              if (f.screenshot) expect(e[f.screenshot]).to.equal(undefined);
              expect(e.enrichment_notes?.[s], `${s} note`).to.be.a('string');
              if (outcome === 'not_found') {
                expect(e[f.last]).to.equal(t.clock.now().toISOString());
                if (f.txn) expect(e[f.txn]).to.match(/^SBX-/);
              } else {
                expect(e[f.last], 'no answer about the record, no last_fetch').to.equal(undefined);
              }
            }
          }
          if (flag === 'sync_private') expect(e.private_enrichment_pending).to.equal(false);
          // the file behind every URL in the entry can be read
          for (const url of urlsIn(e)) expect((await download(url)).status, url).to.equal(200);
        });
      }
    }

    it('title.data.found fires only when a pull goes from not_found to found, never the first time, never title.data.not_found', async () => {
      const wrong = vin({ outcome: 'not_found' });
      const id = await create(t, { account_data: data(wrong), sync_nmvtis: true, sync_private: true });
      let e = await settled(t, id);
      expect([e.nmvtis_found_status, e.state_found_status, e.portal_found_status]).to.deep.equal([
        'not_found',
        'not_found',
        'not_found',
      ]);
      // the VIN was mistyped: correct it, pull again
      const right = vin({ outcome: 'found' });
      expect(
        (await t.request('PATCH', `/title/${id}`, { body: { account_data: { vehicle: { vin: right } } } })).status,
      ).to.equal(200);
      const r = await t.request('POST', `/title/${id}/data`, { body: { sync_nmvtis: true, sync_private: true } });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ entryId: id, job_status: 'enriching' });
      e = await settled(t, id);
      expect([e.nmvtis_found_status, e.state_found_status, e.portal_found_status]).to.deep.equal([
        'found',
        'found',
        'found',
      ]);
      const rows = (await t.engine.outbox.forEntry(id)).filter((x) => x.name === 'title.data.found');
      expect(rows.map((x) => x.payload.source).sort()).to.deep.equal(['nmvtis', 'portal', 'state']);
      for (const row of rows) expect(row.payload).to.include({ from: 'not_found', to: 'found' });
      // found -> found again: nothing more
      await t.request('POST', `/title/${id}/data`, { body: { sync_nmvtis: true } });
      await settled(t, id);
      expect((await events(t, id)).filter((n) => n === 'title.data.found')).to.have.length(3);
      expect(await events(t, id)).to.not.include('title.data.not_found');
    });

    it('title.data.found looks past outcomes that say nothing about the data (not_found -> unavailable -> found fires once)', async () => {
      const id = await create(t, { account_data: data(vin({ outcome: 'not_found' })), sync_nmvtis: true });
      await settled(t, id);
      for (const outcome of ['unavailable', 'found'] as const) {
        await t.request('PATCH', `/title/${id}`, { body: { account_data: { vehicle: { vin: vin({ outcome }) } } } });
        await t.request('POST', `/title/${id}/data`, { body: { sync_nmvtis: true } });
        const e = await settled(t, id);
        expect(e.nmvtis_found_status).to.equal(outcome);
      }
      const names = await events(t, id);
      expect(names.filter((n) => n.startsWith('title.nmvtis_found_status.'))).to.deep.equal([
        'title.nmvtis_found_status.pending',
        'title.nmvtis_found_status.not_found',
        'title.nmvtis_found_status.pending',
        'title.nmvtis_found_status.unavailable',
        'title.nmvtis_found_status.pending',
        'title.nmvtis_found_status.found',
      ]);
      expect(names.filter((n) => n === 'title.data.found')).to.have.length(1);
    });

    it('a pull of an earlier VIN takes no part after the VIN changed (its values are withdrawn)', async () => {
      const first = vin();
      const id = await create(t, { account_data: data(first), sync_private: true });
      let e = await settled(t, id);
      const owners = e.account_data.vehicle.title.owners;
      expect(owners).to.have.length.greaterThan(0);
      await t.request('PATCH', `/title/${id}`, {
        body: { account_data: { vehicle: { vin: vin({ outcome: 'not_found' }) } } },
      });
      await t.request('POST', `/title/${id}/data`, { body: { sync_private: true } });
      e = await settled(t, id);
      expect(e.state_found_status).to.equal('not_found');
      expect(e.account_data.vehicle.title.owners, 'owners of the old VIN are gone').to.equal(undefined);
      expect(e.account_data.vehicle.title.issuing_state, "the client's state stays").to.equal('TX');
    });

    it('POST /title/{id}/data: 400 without a sync flag, 400 for an unknown entry, 409 without account_data', async () => {
      const id = await create(t, { account_data: data(vin()) });
      await settled(t, id);
      for (const body of [{}, { sync_nmvtis: false }, { dppa_exemption: 'DPPA-1' }]) {
        const r = await t.request('POST', `/title/${id}/data`, { body });
        expect(r.status).to.equal(400);
        expect(r.body).to.include({ statusCode: 400 });
      }
      const unknown = await t.request('POST', '/title/00000000-0000-4000-8000-000000000000/data', {
        body: { sync_nmvtis: true },
      });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error).to.match(/not found/);
      const docsOnly = await create(t, { attachments: ['https://docs.example.test/title.pdf'] });
      await settled(t, docsOnly);
      const conflict = await t.request('POST', `/title/${docsOnly}/data`, { body: { sync_public: true } });
      expect(conflict.status).to.equal(409);
      expect(conflict.body).to.deep.equal({ error: conflict.body.error, statusCode: 409 });
      expect(await events(t, docsOnly)).to.not.include('title.nmvtis_found_status.pending');
    });

    it('rule 2: sync_public without an issuing state pulls NMVTIS first and uses the state it found', async () => {
      const v = vin();
      const id = await create(t, { account_data: data(v, null), sync_public: true });
      const e = await settled(t, id);
      expect(e.nmvtis_found_status).to.equal('found');
      expect(e.public_found_status).to.equal('found');
      expect(e.state).to.match(/^[A-Z]{2}$/);
      const nmvtis = JSON.parse((await download(e.nmvtis_pull)).body.toString('utf8'));
      const pub = JSON.parse((await download(e.public_pull)).body.toString('utf8'));
      expect(pub.vehicle.title.issuing_state).to.equal(nmvtis.vehicle.title.issuing_state);
      expect(e.account_data.vehicle.title.issuing_state).to.equal(nmvtis.vehicle.title.issuing_state);
      const names = await events(t, id);
      expect(names.indexOf('title.nmvtis_found_status.found')).to.be.lessThan(
        names.indexOf('title.public_found_status.found'),
      );
    });

    it('rule 2 on POST /data: sync_private without an issuing state also pulls NMVTIS; with a state it does not', async () => {
      const a = await create(t, { account_data: data(vin(), null) });
      await settled(t, a);
      await t.request('POST', `/title/${a}/data`, { body: { sync_private: true, dppa_exemption: 'DPPA-3' } });
      const ea = await settled(t, a);
      expect(ea.nmvtis_found_status).to.equal('found');
      expect(ea.state_found_status).to.equal('found');
      const pendings = (await t.engine.outbox.forEntry(a)).filter(
        (x) => x.name === 'title.nmvtis_found_status.pending',
      );
      expect(pendings[0]!.payload).to.include({ trigger: 'data' });

      const b = await create(t, { account_data: data(vin(), 'GA'), sync_private: true });
      const eb = await settled(t, b);
      expect(eb.nmvtis_found_status).to.equal(undefined);
      expect(eb.state_found_status).to.equal('found');
      expect(JSON.parse((await download(eb.state_pull)).body.toString('utf8')).vehicle.title.issuing_state).to.equal(
        'GA',
      );
    });

    it('public and private pulls are skipped when neither the client nor NMVTIS gives an issuing state', async () => {
      const id = await create(t, {
        account_data: data(vin({ outcome: 'not_found' }), null),
        sync_public: true,
        sync_private: true,
      });
      const e = await settled(t, id);
      expect(e.nmvtis_found_status).to.equal('not_found');
      for (const s of ['public', 'state', 'portal']) {
        expect(e[`${s}_found_status`], s).to.equal('skipped');
        expect(e.enrichment_notes[s]).to.match(/no issuing state/);
      }
      expect(await events(t, id)).to.include('title.public_found_status.skipped');
      expect(e.private_enrichment_pending).to.equal(false);
    });

    it('NMVTIS maintenance windows make the pull unavailable (clock injected), daily 06:00-07:00 and Sunday 06:00-10:00 UTC', async () => {
      await withMaintenanceWindows(async () => {
        const cases: [string, string][] = [
          ['2026-03-02T06:30:00Z', 'unavailable'], // Monday 06:30
          ['2026-03-02T07:00:00Z', 'found'], // Monday 07:00
          ['2026-03-01T09:59:00Z', 'unavailable'], // Sunday 09:59
          ['2026-03-01T10:00:00Z', 'found'], // Sunday 10:00
          ['2026-03-01T05:59:00Z', 'found'], // Sunday 05:59
        ];
        try {
          for (const [at, want] of cases) {
            t.clock.at = new Date(at);
            const id = await create(t, { account_data: data(vin()), sync_nmvtis: true, sync_public: true });
            const e = await settled(t, id);
            expect(e.nmvtis_found_status, at).to.equal(want);
            expect(e.public_found_status, `${at}: only NMVTIS has windows`).to.equal('found');
            if (want === 'unavailable') expect(e.enrichment_notes.nmvtis).to.match(/maintenance/);
          }
        } finally {
          t.clock.at = new Date('2026-03-04T15:00:00Z');
        }
      });
    });

    it('insurance: a lapsed policy puts an INSURANCE hold on the vehicle; the search is recorded', async () => {
      const id = await create(t, { account_data: data(vin({ lapsed: true })), sync_nmvtis: true });
      const e = await settled(t, id);
      expect(e.insurance_search_result).to.equal('found');
      expect(e.insurance_update_result).to.equal('hold_added');
      expect(e.insurance_last_fetch).to.equal(t.clock.now().toISOString());
      expect(e.insurance_search_raw_data).to.be.an('object');
      expect(e.insurance_search_raw_data.coverage.status).to.equal('LAPSED');
      const v = e.account_data.vehicle;
      expect(v.has_reg_title_holds).to.equal(true);
      expect(v.reg_title_holds).to.have.length(1);
      expect(v.reg_title_holds[0]).to.include({
        hold_type: 'INSURANCE',
        hold_code: 'INSURANCE_LAPSED',
        source: 'insurance',
      });
      expect(v.reg_title_holds[0].issue_date).to.match(/^\d{4}-\d{2}-\d{2}$/);
      expect(v.insurance.policy_number).to.be.a('string');
      // again: the hold is not added twice
      await t.request('POST', `/title/${id}/data`, { body: { sync_nmvtis: true } });
      const again = await settled(t, id);
      expect(again.account_data.vehicle.reg_title_holds).to.have.length(1);
      expect(again.insurance_update_result).to.equal('unchanged');

      const ok = await create(t, {
        account_data: {
          ...data(vin()),
          vehicle: {
            vin: vin(),
            title: { issuing_state: 'TX' },
            insurance: { provider_name: 'ACME MUTUAL', policy_number: 'P-1' },
          },
        },
        sync_nmvtis: true,
      });
      const eo = await settled(t, ok);
      expect(eo.insurance_search_result).to.equal('found');
      expect(eo.account_data.vehicle.insurance, "the client's policy stays").to.deep.equal({
        provider_name: 'ACME MUTUAL',
        policy_number: 'P-1',
      });
      expect(eo.account_data.vehicle.reg_title_holds).to.equal(undefined);
      expect(eo.insurance_search_raw_data.searched_policy).to.deep.equal({
        provider_name: 'ACME MUTUAL',
        policy_number: 'P-1',
      });

      const none = await create(t, { account_data: data(vin({ outcome: 'not_found' })), sync_public: true });
      const en = await settled(t, none);
      expect(en.insurance_search_result).to.equal('not_found');
      expect(en.insurance_update_result).to.equal('not_applied');
    });

    it('the discrepancy set: sources disagree, the newest title wins, disagreements are recorded', async () => {
      const id = await create(t, {
        account_data: data(vin({ scenario: '7' })),
        sync_nmvtis: true,
        sync_public: true,
        sync_private: true,
      });
      const e = await settled(t, id);
      const state = JSON.parse((await download(e.state_pull)).body.toString('utf8'));
      const nmvtis = JSON.parse((await download(e.nmvtis_pull)).body.toString('utf8'));
      expect(nmvtis.vehicle.title.issuance_date < state.vehicle.title.issuance_date, 'NMVTIS lags').to.equal(true);
      const title = e.account_data.vehicle.title;
      expect(title.number).to.equal(state.vehicle.title.number);
      expect(title.issuance_date).to.equal(state.vehicle.title.issuance_date);
      expect(title.previous_title.map((p: any) => p.number)).to.include(nmvtis.vehicle.title.number);
      const disc = Object.fromEntries(e.account_discrepancies.items.map((i: any) => [i.field_path, i.observations]));
      expect(disc).to.have.keys(
        '/vehicle/title/number',
        '/vehicle/title/issuance_date',
        '/vehicle/title/odometer_reading',
        '/vehicle/title/has_liens',
      );
      expect(disc['/vehicle/title/has_liens'].find((o: any) => o.from.doc_type === 'PUBLIC_DMV').value).to.equal(false);
      expect(disc['/vehicle/title/number'].find((o: any) => o.from.kind === 'nmvtis_pull').from.ref_id).to.equal(
        `nmvtis:${e.nmvtis_txn_id}`,
      );
      const matched = e.account_matches.items.map((i: any) => i.field_path);
      expect(matched).to.include.members(['/vehicle/title/owners', '/vehicle/title/issuing_state', '/vehicle/make']);
      const owners = e.account_matches.items.find((i: any) => i.field_path === '/vehicle/title/owners');
      expect(owners.sources.map((s: any) => s.doc_type)).to.include.members(['STATE_RECORD', 'DMV_PORTAL', 'NMVTIS']);
    });

    it("precedence: the client's owner and lien facts win over every pull; pulls fill what the client left out", async () => {
      const v = vin({ scenario: '4' }); // sandbox: someone else owns it
      const id = await create(t, {
        account_data: {
          ...data(v),
          vehicle: {
            vin: v,
            title: { issuing_state: 'TX', owners: [{ name: 'CLIENT SAYS OWNER' }], has_liens: false },
          },
        },
        sync_nmvtis: true,
        sync_private: true,
      });
      const e = await settled(t, id);
      const title = e.account_data.vehicle.title;
      expect(title.owners).to.deep.equal([{ name: 'CLIENT SAYS OWNER' }]);
      expect(title.has_liens).to.equal(false);
      expect(title.active_liens, "the lien group is the client's as a whole").to.equal(undefined);
      expect(title.number).to.be.a('string');
      expect(e.account_data.vehicle.make).to.equal('HONDA');
      expect(e.account_data.vehicle.model).to.be.a('string');
      expect(e.account_data.vehicle.year).to.equal(2020);
      // a later PATCH of a pulled value makes it the client's
      await t.request('PATCH', `/title/${id}`, { body: { account_data: { vehicle: { model: 'CLIENT MODEL' } } } });
      await t.request('POST', `/title/${id}/data`, { body: { sync_private: true } });
      expect((await settled(t, id)).account_data.vehicle.model).to.equal('CLIENT MODEL');
    });

    it('account_facts: only for preview organizations and only when job_status is complete', async () => {
      const plain = await create(t, { account_data: data(vin()), sync_private: true });
      const ep = await settled(t, plain);
      expect(ep).to.not.have.property('account_facts');
      expect(ep).to.not.have.property('enrichment_meta');

      const org = await t.newOrg();
      await t.engine.orgs.updateSettings(org.name, { preview: true });
      const r = await t.request('POST', '/title', {
        key: org.key,
        body: { account_data: data(vin({ scenario: '3' })), sync_private: true },
      });
      const id = r.body.entryId;
      const e = await (async () => {
        for (;;) {
          const g = await t.request('GET', `/title/${id}`, { key: org.key });
          if (g.body.job_status === 'complete') return g.body;
          expect(g.body, 'no facts before complete').to.not.have.property('account_facts');
          await new Promise((res) => setTimeout(res, 20));
        }
      })();
      const f = e.account_facts;
      expect(f.source).to.equal('reconcile');
      expect(Date.parse(f.computed_at)).to.be.a('number');
      expect(f.borrower_on_title.value).to.equal(true);
      expect(f.borrower_signature_only_needed_for_title.value, 'an AND co-owner must sign too').to.equal(false);
      expect(f.has_problematic_brands.value).to.equal(false);
      expect(f.are_there_active_liens.value).to.equal(true);
      for (const key of [
        'borrower_on_title',
        'borrower_signature_only_needed_for_title',
        'has_problematic_brands',
        'are_there_active_liens',
      ]) {
        expect(f[key].summary, key).to.match(/^[A-Z].*\.$/);
        // one sentence: no sentence break once initials (`Q.`) are set aside
        expect(f[key].summary.replace(/\b[A-Z]\.\s/g, '').split(/[.!?]\s/), `${key}: one sentence`).to.have.length(1);
        for (const ref of f[key].references) {
          expect(ref.field_path, key).to.match(/^\/account_data\//);
          expect(getAt(e, ref.field_path), `${key} ${ref.field_path}`).to.deep.equal(ref.value);
          expect(['submitted_borrower', 'reconciled_title']).to.include(ref.from.kind);
        }
      }
      expect(f.borrower_on_title.references.map((x: any) => x.from.kind)).to.include.members([
        'submitted_borrower',
        'reconciled_title',
      ]);
      // a request that restarts processing hides them until complete again
      await t.request('POST', `/title/${id}/data`, { key: org.key, body: { sync_public: true } });
      const during = await t.request('GET', `/title/${id}`, { key: org.key });
      if (during.body.job_status !== 'complete') expect(during.body).to.not.have.property('account_facts');
    });
  });
}

describe('enrichment: private_enrichment_pending and pending statuses while the job is queued', () => {
  it('a request sets the found statuses to pending and private_enrichment_pending; the private stage clears it', async () => {
    const q = await startTestEngine({
      config: {
        stages: ['intake', 'vin-decode', 'nmvtis', 'public-dmv', 'private-portal', 'insurance', 'account-facts'],
        workers: { enabled: false },
      },
    });
    try {
      await q.engine.orgs.updateSettings(q.org.name, { preview: true });
      const id = await create(q, { account_data: data(vin()), sync_private: true, sync_public: true });
      const queued = await q.request('GET', `/title/${id}`);
      expect(queued.body).to.include({
        private_enrichment_pending: true,
        state_found_status: 'pending',
        portal_found_status: 'pending',
        public_found_status: 'pending',
        job_status: 'pending',
      });
      expect(queued.body).to.not.have.property('nmvtis_found_status');
      expect(queued.body, 'no facts while not complete').to.not.have.property('account_facts');
      // a worker on the same database runs the job
      const w = await startTestEngine({
        listen: false,
        dataDir: q.dataDir,
        config: {
          stages: ['intake', 'vin-decode', 'nmvtis', 'public-dmv', 'private-portal', 'insurance', 'account-facts'],
          workers: { pollIntervalMs: 20 },
        },
      });
      try {
        const e = await settled(q, id);
        expect(e).to.include({
          private_enrichment_pending: false,
          state_found_status: 'found',
          portal_found_status: 'found',
          public_found_status: 'found',
        });
        expect(e.account_facts.borrower_on_title.value).to.equal(true);
      } finally {
        await w.engine.stop();
      }
    } finally {
      await q.stop();
    }
  });
});
