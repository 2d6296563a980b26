import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { WalCheckpointer, nextCheckpointWait } from '../../core/db/wal-checkpointer.js';
import { startTestEngine } from '../helpers/engine.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';

const pragma = (db: Sqlite.Database, p: string) => db.pragma(p, { simple: true }) as number;

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function walDatabase(): { file: string; db: Sqlite.Database } {
  const file = join(mkdtempSync(join(tmpdir(), 'titled-wal-')), 'db.sqlite');
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  return { file, db };
}

describe('SQLite WAL checkpoints in a thread of their own (core/db/wal-checkpointer.ts)', () => {
  it('spaces checkpoints so each copies about 1,000 frames, within 50 ms and 1 s; backs off twice as long when idle', () => {
    const next = (wait: number, copied: number) => nextCheckpointWait(wait, copied, 50, 1000);
    expect(next(50, 100)).to.equal(500); // 2 frames/ms: 1,000 more in 500 ms
    expect(next(500, 1000)).to.equal(500); // steady
    expect(next(500, 4000)).to.equal(125); // more writes: sooner
    expect(next(50, 20_000)).to.equal(50); // never more often than busyMs
    expect(next(1000, 10)).to.equal(1000); // never less often than idleMs while copying
    expect(next(100, 0)).to.equal(200);
    expect(next(800, 0)).to.equal(1000);
  });

  it('copies the WAL back from its thread while there are writes; the connection keeps only a 4,000-page backstop', async () => {
    const { file, db } = walDatabase();
    const warnings: string[] = [];
    const cp = new WalCheckpointer(file, db, (m) => warnings.push(m));
    expect(cp.running, 'no thread before the first write').to.equal(false);
    expect(pragma(db, 'wal_autocheckpoint')).to.equal(1000);
    cp.writing();
    expect(cp.running).to.equal(true);
    expect(pragma(db, 'wal_autocheckpoint')).to.equal(4000);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    // about 300 pages: under the connection's own threshold, so only the thread can have copied them
    for (let i = 0; i < 300; i++) insert.run('x'.repeat(2000));
    await until('a checkpoint from the thread', () => cp.stats.frames > 0);
    await cp.stop();
    expect(cp.running).to.equal(false);
    expect(pragma(db, 'wal_autocheckpoint')).to.equal(1000);
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(r!.checkpointed, 'every frame is in the database file').to.equal(r!.log);
    expect(warnings).to.deep.equal([]);
    db.close();
  });

  it('the thread ends when it has had nothing to copy for a while, and the next write starts another', async () => {
    const { file, db } = walDatabase();
    const cp = new WalCheckpointer(file, db, () => undefined, 300);
    cp.writing();
    db.prepare('INSERT INTO t (v) VALUES (?)').run('x');
    await until('the idle thread to end', () => !cp.running);
    expect(pragma(db, 'wal_autocheckpoint')).to.equal(1000);
    cp.writing();
    expect(cp.running).to.equal(true);
    expect(cp.stats.threads).to.equal(2);
    await cp.stop();
    db.close();
  });

  it('a thread that cannot run gives the checkpoints back to the connection for good, with a warning', async () => {
    const { db } = walDatabase();
    const warnings: string[] = [];
    const cp = new WalCheckpointer('/nonexistent/dir/db.sqlite', db, (m) => warnings.push(m));
    cp.writing();
    await until('the fallback', () => warnings.length > 0);
    expect(warnings[0]).to.match(/checkpoint thread (failed|exited).*back on the daemon's connection/);
    expect(pragma(db, 'wal_autocheckpoint')).to.equal(1000);
    cp.writing();
    expect(cp.running, 'no second try').to.equal(false);
    await cp.stop();
    db.close();
  });

  it('a listening engine on SQLite checkpoints from its thread while entries are written', async () => {
    const t = await startTestEngine();
    try {
      const p = await t.engine.principalFor(t.org.name);
      for (let i = 0; i < 40; i++)
        await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(500 + i) } } });
      await until('a checkpoint', () => (t.engine.db.checkpointStats?.frames ?? 0) > 0);
    } finally {
      await t.stop();
    }
    expect(t.engine.db.checkpointStats).to.include({ threads: 1, running: false });
  });
});
