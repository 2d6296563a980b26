/**
 * Database.batch: several writers in one transaction, each in a savepoint of its own (batch import,
 * core/import/csv-import.ts). A writer that fails rolls back its own writes only; the others commit together, with
 * their outbox events; the workers are woken after the commit.
 */
import { expect } from 'chai';
import pg from 'pg';
import type { Principal } from '../../core/auth/authenticator.js';
import { DIALECTS, PG_URL, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { vinFor } from '../helpers/vins.js';

const body = (n: number) => ({
  account_data: { vehicle: { vin: vinFor(n, '1FTFW1E50') }, loan: { loan_id: `L${n}` } },
});
const entryIds = async (t: TestEngine) =>
  (await t.engine.db.query<{ id: string }>('SELECT id FROM entries ORDER BY vin')).map((r) => r.id);

for (const dialect of DIALECTS) {
  describe(`Database.batch (${dialect})`, function () {
    this.timeout(60_000);
    let t: TestEngine;
    let p: Principal;

    before(async () => {
      t = await startTestEngine({
        dialect,
        listen: false,
        config: { stages: ['intake'], workers: { enabled: false } },
      });
      p = await t.engine.principalFor(t.org.name);
    });
    after(async () => {
      await t?.stop();
    });

    it('a writer that fails rolls back alone; the others commit with their events, wake-ups after it', async () => {
      const { db, service, queue, outbox } = t.engine;
      const before = (await entryIds(t)).length;
      let woken = 0;
      const onWake = () => woken++;
      queue.events.on('enqueued', onWake);
      try {
        const made = await db.batch(async (batch) => {
          const first = await service.create(p, body(1), { batch });
          const failed = await db
            .tx(async (m) => {
              await db.exec(
                'INSERT INTO duplicate_pointers (id, "orgId", "canonicalId", "userId", "createdAt") ' +
                  "VALUES ('gone', ?, ?, 'u', 0)",
                [p.org.id, first.entryId],
                m,
              );
              throw new Error('this row is bad');
            }, batch)
            .catch((e: Error) => e.message);
          expect(failed).to.equal('this row is bad');
          const second = await service.create(p, body(2), { batch });
          expect(woken, 'no wake-up before the commit').to.equal(0);
          return [first.entryId, second.entryId];
        });
        expect(woken).to.equal(2);
        expect((await entryIds(t)).length).to.equal(before + 2);
        expect(await db.query('SELECT id FROM duplicate_pointers')).to.deep.equal([]);
        for (const id of made)
          expect((await outbox.forEntry(id)).map((e) => e.name)).to.deep.equal(['title.job_status.pending']);
        const jobs = await db.query<{ entryId: string }>('SELECT "entryId" FROM jobs');
        expect(jobs.map((j) => j.entryId)).to.include.members(made);
      } finally {
        queue.events.off('enqueued', onWake);
      }
    });

    it('a batch that fails commits nothing and runs no after-commit callback', async () => {
      const { db, service } = t.engine;
      const before = await entryIds(t);
      let after = 0;
      const failed = await db
        .batch(async (batch) => {
          await service.create(p, body(3), { batch });
          batch.afterCommit(() => after++);
          throw new Error('the import stops');
        })
        .catch((e: Error) => e.message);
      expect(failed).to.equal('the import stops');
      expect(after).to.equal(0);
      expect(await entryIds(t)).to.deep.equal(before);
    });

    it('writers called at once take their savepoints one after the other', async () => {
      const { db, service } = t.engine;
      const before = (await entryIds(t)).length;
      const results = await db.batch((batch) =>
        Promise.all(
          [4, 5, 6, 7].map((n) =>
            service.create(p, n === 5 ? { account_data: 'x' } : body(n), { batch }).then(
              () => 'created',
              (e: Error) => e.name,
            ),
          ),
        ),
      );
      expect(results).to.deep.equal(['created', 'TitledError', 'created', 'created']);
      expect((await entryIds(t)).length).to.equal(before + 3);
    });

    if (dialect === 'postgres')
      it("a savepoint rolled back takes its notification with it: the next writer's is sent", async () => {
        const { db } = t.engine;
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        const heard: string[] = [];
        try {
          client.on('notification', (n) => heard.push(n.channel));
          await client.query(`LISTEN "${db.notifications.channel('jobs')}"`);
          await db.batch(async (batch) => {
            await db
              .tx(async (m) => {
                await db.notifications.notify(m, 'jobs');
                throw new Error('rolled back');
              }, batch)
              .catch(() => undefined);
            await db.tx((m) => db.notifications.notify(m, 'jobs'), batch);
          });
          const deadline = Date.now() + 5000;
          while (!heard.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
          expect(heard).to.deep.equal([db.notifications.channel('jobs')]);
        } finally {
          await client.end();
        }
      });
  });
}
