import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { WalCheckpointer } from '../../core/db/wal-checkpointer.js';
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
  it('copies the WAL back from its thread; the connection keeps only a 4,000-page backstop, and gets the default back on stop', async () => {
    const { file, db } = walDatabase();
    const warnings: string[] = [];
    const cp = new WalCheckpointer(file, db, (m) => warnings.push(m));
    expect(pragma(db, 'wal_autocheckpoint')).to.equal(4000);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    for (let i = 0; i < 300; i++) insert.run('x'.repeat(2000));
    await until('a checkpoint from the thread', () => cp.stats.frames > 0);
    expect(cp.stats.checkpoints).to.be.greaterThan(0);
    await cp.stop();
    expect(pragma(db, 'wal_autocheckpoint')).to.equal(1000);
    // everything written is in the database file: a fresh reader without the WAL sees every row
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(r!.checkpointed).to.equal(r!.log);
    expect(warnings).to.deep.equal([]);
    db.close();
  });

  it('a thread that cannot run gives the checkpoints back to the connection, with a warning', async () => {
    const { db } = walDatabase();
    const warnings: string[] = [];
    const cp = new WalCheckpointer('/nonexistent/dir/db.sqlite', db, (m) => warnings.push(m));
    await until('the fallback', () => warnings.length > 0);
    expect(warnings[0]).to.match(/checkpoint thread (failed|exited).*back on the daemon's connection/);
    expect(pragma(db, 'wal_autocheckpoint')).to.equal(1000);
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
    expect(t.engine.db.checkpointStats!.checkpoints).to.be.greaterThan(0);
  });
});
