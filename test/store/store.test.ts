import { expect } from 'chai';
import type { Principal } from '../../core/auth/authenticator.js';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from '../../core/db/migrations/index.js';
import { TitledError } from '../../core/errors.js';
import { EntryStore } from '../../core/store/entry-store.js';
import { DIALECTS, VALID_VIN, eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { stageClass, vinFor } from '../pipeline/fixtures/test-stages.js';

const count = async (t: TestEngine, sql: string, params: unknown[] = []) =>
  Number((await t.engine.db.query<{ n: unknown }>(sql, params))[0]!.n);

const jobStatusEvents = async (t: TestEngine, entryId: string) =>
  (await t.engine.outbox.forEntry(entryId)).filter((e) => e.name.startsWith('title.job_status.'));

/** The job_status events of an entry form one chain: null -> pending -> ... -> the entry's status now. */
function expectStatusChain(events: { name: string; payload: Record<string, unknown> }[], current: string): void {
  expect(events.length, 'job_status events').to.be.greaterThan(0);
  let prev: unknown = null;
  for (const e of events) {
    expect(e.name).to.equal(`title.job_status.${String(e.payload.to)}`);
    expect(e.payload.from, `event ${e.name}: from should be the previous event's to`).to.equal(prev);
    expect(e.payload.to).to.not.equal(e.payload.from);
    prev = e.payload.to;
  }
  expect(prev, 'the last event names the current status').to.equal(current);
}

for (const dialect of DIALECTS) {
  describe(`store (${dialect})`, function () {
    let t: TestEngine;
    let p: Principal;

    before(async () => {
      t = await startTestEngine({ dialect });
      p = await t.engine.principalFor(t.org.name);
    });
    after(async () => {
      await t?.stop();
    });

    it('50 concurrent creates of one VIN make one entry and 49 pointers, every id resolving to it', async () => {
      const vin = vinFor(1);
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.request('POST', '/title', { body: { account_data: { vehicle: { vin }, loan: { loan_id: `L${i}` } } } }),
        ),
      );
      for (const r of responses) expect(r.status, JSON.stringify(r.body)).to.equal(200);
      const ids = responses.map((r) => r.body.entryId as string);
      expect(new Set(ids).size, 'distinct ids returned').to.equal(50);
      expect(
        await count(t, 'SELECT COUNT(*) AS n FROM entries WHERE "orgId" = ? AND vin = ?', [p.org.id, vin]),
      ).to.equal(1);
      const canonical = (
        await t.engine.db.query<{ id: string }>('SELECT id FROM entries WHERE "orgId" = ? AND vin = ?', [p.org.id, vin])
      )[0]!.id;
      expect(ids).to.include(canonical);
      expect(
        await count(t, 'SELECT COUNT(*) AS n FROM duplicate_pointers WHERE "canonicalId" = ?', [canonical]),
      ).to.equal(49);
      const pointerIds = (
        await t.engine.db.query<{ id: string }>('SELECT id FROM duplicate_pointers WHERE "canonicalId" = ?', [
          canonical,
        ])
      ).map((r) => r.id);
      expect(pointerIds.sort()).to.deep.equal(ids.filter((id) => id !== canonical).sort());
      const gets = await Promise.all(ids.map((id) => t.request('GET', `/title/${id}`)));
      for (const g of gets) {
        expect(g.status).to.equal(200);
        expect(g.body.entryId).to.equal(canonical);
        expect(g.body.VIN).to.equal(vin);
      }
    });

    it('50 concurrent creates of 50 VINs make 50 entries', async () => {
      const vins = Array.from({ length: 50 }, (_, i) => vinFor(100 + i));
      const results = await Promise.all(
        vins.map((vin) => t.engine.service.create(p, { account_data: { vehicle: { vin } } })),
      );
      expect(results.every((r) => r.job_status === 'pending')).to.equal(true);
      expect(new Set(results.map((r) => r.entryId)).size).to.equal(50);
      const marks = vins.map(() => '?').join(', ');
      expect(
        await count(t, `SELECT COUNT(*) AS n FROM entries WHERE "orgId" = ? AND vin IN (${marks})`, [
          p.org.id,
          ...vins,
        ]),
      ).to.equal(50);
      expect(
        await count(
          t,
          `SELECT COUNT(*) AS n FROM duplicate_pointers p JOIN entries e ON e.id = p."canonicalId" WHERE e.vin IN (${marks})`,
          vins,
        ),
      ).to.equal(0);
      for (const r of results) expect((await t.engine.service.get(p, r.entryId)).entryId).to.equal(r.entryId);
    });

    it('the same VIN in two organizations makes two entries', async () => {
      const other = await t.newOrg();
      const q = await t.engine.principalFor(other.name);
      const [a, b] = await Promise.all([
        t.engine.service.create(p, { account_data: { vehicle: { vin: VALID_VIN } } }),
        t.engine.service.create(q, { account_data: { vehicle: { vin: VALID_VIN } } }),
      ]);
      expect(a!.entryId).to.not.equal(b!.entryId);
      expect(await count(t, 'SELECT COUNT(*) AS n FROM entries WHERE vin = ?', [VALID_VIN])).to.equal(2);
      expect(
        await count(t, 'SELECT COUNT(*) AS n FROM duplicate_pointers WHERE "canonicalId" IN (?, ?)', [
          a!.entryId,
          b!.entryId,
        ]),
      ).to.equal(0);
      // each organization sees only its own
      expect((await t.engine.service.get(p, a!.entryId)).website).to.equal(t.org.name);
      expect((await t.engine.service.get(q, b!.entryId)).website).to.equal(other.name);
      const cross = await t.engine.service.get(q, a!.entryId).then(
        () => null,
        (e: unknown) => e,
      );
      expect(cross).to.be.instanceOf(TitledError);
      expect((cross as TitledError).code).to.equal('ENTRY_NOT_FOUND');
    });

    it('migrations are idempotent and the schema comes from migrations', async () => {
      const ds = t.engine.db.dataSource;
      expect(ds.options.synchronize ?? false, 'synchronize is never used').to.equal(false);
      expect(await t.engine.db.migrate(), 'second migrate').to.deep.equal([]);
      expect(await t.engine.db.pendingMigrations()).to.equal(false);
      // every migration the engine knows (core's and its plugins') is recorded once, core's among them
      const core = (dialect === 'postgres' ? POSTGRES_MIGRATIONS : SQLITE_MIGRATIONS).map(
        (m) => (m as unknown as { name: string }).name,
      );
      const known = ds.migrations.map((m) => m.name ?? m.constructor.name);
      const recorded = (
        await t.engine.db.query<{ name: string }>('SELECT name FROM titled_migrations ORDER BY id')
      ).map((r) => r.name);
      expect(recorded).to.include.members(core);
      expect([...recorded].sort()).to.deep.equal([...known].sort());
      expect(new Set(recorded).size).to.equal(recorded.length);
      if (dialect === 'postgres') {
        // the tables are in this engine's own schema, created by the migration
        const schema = t.engine.config.databaseSchema!;
        const tables = (
          await t.engine.db.query<{ table_name: string }>(
            'SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
            [schema],
          )
        ).map((r) => r.table_name);
        expect(tables).to.include.members([
          'api_keys',
          'duplicate_pointers',
          'entries',
          'jobs',
          'organizations',
          'outbox',
          'titled_migrations',
        ]);
      }
      // the migrations describe the entities exactly: synchronize would have nothing to do
      const diff = await ds.driver.createSchemaBuilder().log();
      expect(
        diff.upQueries.map((q) => q.query),
        'schema drift between entities and migrations',
      ).to.deep.equal([]);
    });

    it('the list order is stable across pages, also with equal createdAt', async () => {
      const other = await t.newOrg();
      const q = await t.engine.principalFor(other.name);
      const ids: string[] = [];
      for (let i = 0; i < 13; i++)
        ids.push((await t.engine.service.create(q, { account_data: { vehicle: { vin: vinFor(500 + i) } } })).entryId);
      // 10 of them share one createdAt, 3 are older
      await t.engine.db.exec('UPDATE entries SET "createdAt" = ? WHERE "orgId" = ?', [1_700_000_000_000, q.org.id]);
      await t.engine.db.exec('UPDATE entries SET "createdAt" = ? WHERE id IN (?, ?, ?)', [
        1_600_000_000_000,
        ids[0],
        ids[5],
        ids[9],
      ]);
      const readAll = async (limit: number) => {
        const seen: string[] = [];
        let token: string | null = null;
        for (let page = 0; page < 50; page++) {
          const r = await t.engine.service.list(q, { limit, ...(token ? { nextToken: token } : {}) });
          seen.push(...r.items.map((e) => (e as { entryId: string }).entryId));
          expect(r.hasMore).to.equal(r.nextToken !== null);
          if (!r.hasMore) break;
          token = r.nextToken;
        }
        return seen;
      };
      const all = await readAll(500);
      expect(all).to.have.length(13);
      for (const limit of [1, 2, 3, 4, 5, 12]) {
        const paged = await readAll(limit);
        expect(paged, `pages of ${limit}`).to.deep.equal(all);
      }
      const older = new Set([ids[0], ids[5], ids[9]]);
      expect(
        all.slice(10).every((id) => older.has(id)),
        'older entries last',
      ).to.equal(true);
      expect(all.slice(0, 10).every((id) => !older.has(id))).to.equal(true);
    });

    it('delete removes the entry, its pointers and its queued jobs', async () => {
      const s = await startTestEngine({ dialect, config: { workers: { enabled: false } }, listen: false });
      try {
        const sp = await s.engine.principalFor(s.org.name);
        const vin = vinFor(900);
        const first = await s.engine.service.create(sp, { account_data: { vehicle: { vin } } });
        const dups = [];
        for (let i = 0; i < 3; i++)
          dups.push(await s.engine.service.create(sp, { account_data: { vehicle: { vin, year: 2000 + i } } }));
        const keep = await s.engine.service.create(sp, { account_data: { vehicle: { vin: vinFor(901) } } });
        expect(
          await count(s, 'SELECT COUNT(*) AS n FROM jobs WHERE "entryId" = ? AND status = ?', [
            first.entryId,
            'queued',
          ]),
        ).to.equal(1);
        const res = await s.engine.service.delete(sp, dups[1]!.entryId);
        expect(res).to.deep.include({ statusCode: 200, entryId: first.entryId, deletedCount: 4 });
        expect(await count(s, 'SELECT COUNT(*) AS n FROM entries WHERE id = ?', [first.entryId])).to.equal(0);
        expect(
          await count(s, 'SELECT COUNT(*) AS n FROM duplicate_pointers WHERE "canonicalId" = ?', [first.entryId]),
        ).to.equal(0);
        expect(await count(s, 'SELECT COUNT(*) AS n FROM jobs WHERE "entryId" = ?', [first.entryId])).to.equal(0);
        for (const id of [first.entryId, ...dups.map((d) => d.entryId)]) {
          const err = await s.engine.service.get(sp, id).then(
            () => null,
            (e: unknown) => e,
          );
          expect((err as TitledError)?.code, `GET ${id}`).to.equal('ENTRY_NOT_FOUND');
        }
        // other entries and their jobs are untouched
        expect(await count(s, 'SELECT COUNT(*) AS n FROM jobs WHERE "entryId" = ?', [keep.entryId])).to.equal(1);
        // the VIN is free again
        const again = await s.engine.service.create(sp, { account_data: { vehicle: { vin } } });
        expect(again.entryId).to.not.equal(first.entryId);
        expect(
          await count(s, 'SELECT COUNT(*) AS n FROM duplicate_pointers WHERE "canonicalId" = ?', [again.entryId]),
        ).to.equal(0);
      } finally {
        await s.stop();
      }
    });

    describe('outbox', () => {
      let o: TestEngine;
      let op: Principal;
      before(async () => {
        o = await startTestEngine({
          dialect,
          listen: false,
          config: { stages: ['intake', 'parse', 'enrich', 'forms'], workers: { concurrency: 4 } },
          options: {
            stages: {
              parse: stageClass({
                name: 'parse',
                phase: 'input_parsing',
                run: () => new Promise((r) => setTimeout(r, 5)),
              }),
              enrich: stageClass({
                name: 'enrich',
                phase: 'enriching',
                handles: ['fees', 'data'],
                run: (ctx) => {
                  ctx.entry.enriched = ((ctx.entry.enriched as number) ?? 0) + 1;
                },
              }),
              forms: stageClass({
                name: 'forms',
                phase: 'generating_forms',
                run: () => new Promise((r) => setTimeout(r, 5)),
              }),
            },
          },
        });
        op = await o.engine.principalFor(o.org.name);
      });
      after(async () => {
        await o?.stop();
      });

      const idle = async (e: TestEngine) =>
        eventually(async () => (await count(e, 'SELECT COUNT(*) AS n FROM jobs')) === 0, {
          what: 'no jobs left',
          tries: 2000,
        });

      it('has a title.job_status.<status> row for every job_status change, in order', async () => {
        const vin = vinFor(2000);
        const { entryId } = await o.engine.service.create(op, { account_data: { vehicle: { vin } } });
        await idle(o);
        const entry = await o.engine.service.get(op, entryId);
        expect(entry.job_status).to.equal('complete');
        const events = await jobStatusEvents(o, entryId);
        expect(events.map((e) => e.name)).to.deep.equal([
          'title.job_status.pending',
          'title.job_status.input_parsing',
          'title.job_status.enriching',
          'title.job_status.generating_forms',
          'title.job_status.complete',
        ]);
        expectStatusChain(events, 'complete');
      });

      it('keeps one consistent chain under concurrent requests while jobs run', async () => {
        const vin = vinFor(2001);
        const { entryId } = await o.engine.service.create(op, { account_data: { vehicle: { vin } } });
        for (let wave = 0; wave < 6; wave++) {
          const requests: Promise<unknown>[] = [];
          for (let i = 0; i < 5; i++) {
            requests.push(o.engine.service.create(op, { account_data: { vehicle: { vin, year: 2000 + wave } } }));
            requests.push(o.engine.service.requestFees(op, entryId));
            requests.push(o.engine.service.create(op, { account_data: { vehicle: { vin } }, sync_nmvtis: true }));
          }
          await Promise.all(requests);
          await new Promise((r) => setTimeout(r, 10));
        }
        await idle(o);
        const entry = await o.engine.service.get(op, entryId);
        expect(entry.job_status).to.equal('complete');
        expectStatusChain(await jobStatusEvents(o, entryId), 'complete');
        expect(entry.account_data.vehicle?.year, 'the last update is applied').to.equal(2005);
      });

      it('writes the event in the same transaction as the change: a failed save leaves no event', async () => {
        const s = await startTestEngine({ dialect, config: { workers: { enabled: false } }, listen: false });
        try {
          const sp = await s.engine.principalFor(s.org.name);
          const { entryId } = await s.engine.service.create(sp, { account_data: { vehicle: { vin: vinFor(2002) } } });
          const store = s.engine.container.resolve(EntryStore);
          const before = await jobStatusEvents(s, entryId);
          expect(before.map((e) => e.name)).to.deep.equal(['title.job_status.pending']);
          // a status change whose save loses the version race: the whole transaction rolls back
          const err = await s.engine.db
            .tx(async (m) => {
              const found = (await store.load(sp.org.id, entryId, m))!;
              await store.setJobStatus(m, sp.org.id, found.entry, 'enriching');
              await store.save(m, sp.org.id, found.entry, found.version + 1);
            })
            .then(
              () => null,
              (e: unknown) => e,
            );
          expect((err as TitledError)?.code).to.equal('CONFLICT');
          expect((await jobStatusEvents(s, entryId)).map((e) => e.name)).to.deep.equal(['title.job_status.pending']);
          expect((await s.engine.service.get(sp, entryId)).job_status).to.equal('pending');
          // and a save that succeeds writes both
          await s.engine.db.tx(async (m) => {
            const found = (await store.load(sp.org.id, entryId, m))!;
            await store.setJobStatus(m, sp.org.id, found.entry, 'enriching');
            await store.save(m, sp.org.id, found.entry, found.version);
          });
          const after = await jobStatusEvents(s, entryId);
          expectStatusChain(after, 'enriching');
          expect((await s.engine.service.get(sp, entryId)).job_status).to.equal('enriching');
          // every event row belongs to a status the entry really went through
          expect(await count(s, 'SELECT COUNT(*) AS n FROM outbox WHERE "entryId" = ?', [entryId])).to.equal(
            after.length,
          );
        } finally {
          await s.stop();
        }
      });
    });
  });
}
