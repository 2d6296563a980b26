/**
 * kill -9 under load (issue 13): the daemon runs as a child process
 * (`titled serve --config <file>`), clients create entries at it, and it is
 * SIGKILLed while jobs are in the middle of their stages. Every entry whose
 * create was answered 200 exists afterwards and reaches `complete`; no job is
 * left behind. SQLite: the daemon is restarted on its folder. PostgreSQL: two
 * daemons share a schema and an S3 bucket; one is killed, the other takes
 * over its jobs once their leases expire.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type Engine } from '../../index.js';
import { DIALECTS, PG_URL, dropSchema, eventually } from '../helpers/engine.js';
import { CLI, childEnv, kill9, serveDaemon, type Daemon } from '../helpers/daemon.js';
import { startS3, type TestS3 } from '../helpers/s3.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';
import { fixtureEntry } from '../support/fixtures.js';

const SLOW = fileURLToPath(new URL('./fixtures/slow-stage.js', import.meta.url));
const ORG = 'kill9';
const TOTAL = 36;
/** Creates answered before the kill. */
const KILL_AFTER = 14;

/** The config every daemon of a test shares (written to its own file with its own data folder). */
function baseConfig(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    stages: ['intake', 'slow', 'forms'],
    pluginModules: { slow: SLOW },
    // a dead daemon's jobs are taken over 3 s after its last lease renewal
    workers: { concurrency: 4, leaseMs: 3000, pollIntervalMs: 100, retryBaseMs: 50 },
    retention: { intervalMs: 0 },
    log: { level: 'info' },
    ...extra,
  };
}

/** The org and its API key, made through the library before any daemon starts. */
async function setup(config: Record<string, unknown>): Promise<string> {
  const e = await createEngine({ ...config, workers: { enabled: false }, log: { level: 'warn' } });
  try {
    const org = await e.orgs.create(ORG);
    return (await e.keys.create(org.id)).key;
  } finally {
    await e.stop();
  }
}

/**
 * Creates TOTAL entries at `url`, four requests at a time, and calls `kill`
 * once KILL_AFTER were answered; requests after that fail. Answers the ids of
 * the answered creates.
 */
async function createUnderLoad(
  url: () => string,
  key: string,
  base: number,
  kill: () => Promise<void>,
): Promise<string[]> {
  const acked: string[] = [];
  let next = 0;
  let killing: Promise<void> | undefined;
  const account = fixtureEntry('TX', 'full').account_data as Record<string, any>;
  const client = async () => {
    while (next < TOTAL) {
      const i = next++;
      const body = { account_data: { ...account, vehicle: { ...account.vehicle, vin: vinFor(base + i) } } };
      try {
        const res = await fetch(`${url()}/title`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.status === 200) acked.push(((await res.json()) as { entryId: string }).entryId);
        else throw new Error(`create answered ${res.status}: ${await res.text()}`);
      } catch (e) {
        if (!killing) throw e;
      }
      if (acked.length >= KILL_AFTER && !killing) killing = kill();
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  await killing;
  return acked;
}

/** The jobs the process `pid` held when it died (its owner id is `<host>:<pid>:<random>`). */
async function leasedBy(e: Engine, pid: number): Promise<{ id: string; entryId: string }[]> {
  return e.db.query<{ id: string; entryId: string }>(
    `SELECT id, "entryId" FROM jobs WHERE status = 'running' AND "leaseOwner" LIKE ?`,
    [`%:${pid}:%`],
  );
}

/** Waits until every entry of the org is complete and no job is left; answers the org's entry ids. */
async function allComplete(e: Engine): Promise<Set<string>> {
  await eventually(
    async () => {
      const open = await e.db.query<{ n: number }>(`SELECT COUNT(*) AS n FROM entries WHERE "jobStatus" <> 'complete'`);
      const jobs = await e.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM jobs');
      return Number(open[0]!.n) === 0 && Number(jobs[0]!.n) === 0;
    },
    { what: 'every entry complete, no job left', tries: 2400, everyMs: 50 },
  );
  return new Set((await e.db.query<{ id: string }>('SELECT id FROM entries')).map((r) => String(r.id)));
}

describe('kill -9 under load', function () {
  this.timeout(120_000);
  let dir: string;
  const daemons: Daemon[] = [];

  before(() => {
    expect(existsSync(CLI), `compiled CLI at ${CLI}`).to.equal(true);
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'titled-kill9-'));
  });
  afterEach(() => {
    for (const d of daemons.splice(0))
      if (d.proc.exitCode === null && d.proc.signalCode === null) d.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  (DIALECTS.includes('sqlite') ? it : it.skip)(
    'SQLite: killed mid-work and restarted, every answered create exists and completes',
    async () => {
      const config = baseConfig({ dataDir: join(dir, 'data') });
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify(config));
      const key = await setup(config);
      const first = await serveDaemon(file, childEnv({}));
      daemons.push(first);
      const acked = await createUnderLoad(
        () => first.url,
        key,
        100,
        () => kill9(first),
      );
      expect(acked.length).to.be.at.least(KILL_AFTER);

      // what the kill left: jobs held by the dead process, in the middle of their work
      const look = await createEngine({ ...config, workers: { enabled: false }, log: { level: 'warn' } });
      let orphans: { id: string; entryId: string }[];
      try {
        orphans = await leasedBy(look, first.proc.pid!);
      } finally {
        await look.stop();
      }
      expect(orphans.length, 'jobs the kill interrupted').to.be.greaterThan(0);

      const second = await serveDaemon(file, childEnv({}));
      daemons.push(second);
      const check = await createEngine({ ...config, workers: { enabled: false }, log: { level: 'warn' } });
      try {
        const ids = await allComplete(check);
        for (const id of acked) expect(ids.has(id), `answered create ${id} exists`).to.equal(true);
        for (const o of orphans) expect(ids.has(o.entryId)).to.equal(true);
        const p = await check.principalFor(ORG);
        for (const id of acked) {
          const e = await check.service.get(p, id);
          expect(e.job_status, id).to.equal('complete');
          expect(e.forms_status, id).to.equal('generated');
        }
      } finally {
        await check.stop();
      }
      second.proc.kill('SIGTERM');
      expect((await second.exited).code, second.output().slice(-2000)).to.equal(0);
    },
  );

  (DIALECTS.includes('postgres') ? it : it.skip)(
    'PostgreSQL, two daemons on one schema and bucket: one killed, the other finishes its jobs after the lease',
    async () => {
      const schema = `t_kill9_${randomBytes(5).toString('hex')}`;
      let s3: TestS3 | undefined;
      try {
        s3 = await startS3();
        const shared = {
          databaseUrl: PG_URL,
          databaseSchema: schema,
          secret: randomBytes(24).toString('hex'),
          encryption: { masterKey: randomBytes(32).toString('base64') },
          storage: s3.storage(),
        };
        const files = ['a', 'b'].map((n) => {
          const f = join(dir, `${n}.json`);
          writeFileSync(f, JSON.stringify(baseConfig({ ...shared, dataDir: join(dir, n) })));
          return f;
        });
        const config = baseConfig({ ...shared, dataDir: join(dir, 'lib') });
        const key = await setup(config);
        const a = await serveDaemon(files[0]!, childEnv({}));
        daemons.push(a);
        const b = await serveDaemon(files[1]!, childEnv({}));
        daemons.push(b);
        const check = await createEngine({ ...config, workers: { enabled: false }, log: { level: 'warn' } });
        try {
          let orphans: { id: string; entryId: string }[] = [];
          // clients load A; A is killed mid-work and the requests after that go to B
          let target = a.url;
          const acked = await createUnderLoad(
            () => target,
            key,
            400,
            async () => {
              await kill9(a);
              orphans = await leasedBy(check, a.proc.pid!);
              target = b.url;
            },
          );
          expect(acked.length).to.be.at.least(KILL_AFTER);
          expect(orphans.length, 'jobs A held when it died').to.be.greaterThan(0);
          const ids = await allComplete(check);
          for (const id of acked) expect(ids.has(id), `answered create ${id} exists`).to.equal(true);
          // A's jobs were finished by B (finished jobs are deleted; no job is left at all)
          for (const o of orphans) expect(ids.has(o.entryId)).to.equal(true);
          const p = await check.principalFor(ORG);
          for (const o of orphans) {
            const e = await check.service.get(p, o.entryId);
            expect(e.job_status).to.equal('complete');
            expect(e.forms_status).to.equal('generated');
          }
          // the forms are in the bucket, whichever daemon wrote them
          const e0 = await check.service.get(p, acked[0]!);
          expect(await s3.keys(`${e0.storeIndex}/forms/`)).to.include(
            `${e0.storeIndex}/forms/form_title_application.pdf`,
          );
        } finally {
          await check.stop();
        }
        b.proc.kill('SIGTERM');
        expect((await b.exited).code, b.output().slice(-2000)).to.equal(0);
      } finally {
        await s3?.close();
        await dropSchema(schema);
      }
    },
  );
});
