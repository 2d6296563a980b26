import { currentTransaction, runInTransaction } from '../async-context.js';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EntityManager, MixedList, EntitySchema } from 'typeorm';
import { dataSourceClass, QueryFailedError, type DataSource } from './typeorm.js';
import type { TitledConfig } from '../config.js';
import { Notifications } from './notifications.js';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations/index.js';
import { WalCheckpointer, type CheckpointStats } from './wal-checkpointer.js';

export type Dialect = 'sqlite' | 'postgres';

/** Extra tables a plugin brings: its entities and, per dialect, its migrations. */
export interface PluginSchema {
  entities: MixedList<Function | string | EntitySchema>;
  migrations: { sqlite: Function[]; postgres: Function[] };
}

/**
 * SQLite writers of this process, one queue per database file. Engines in one
 * process that share a file (tests, an embedding app) take turns: a second
 * connection that met the first one's write lock would wait in SQLite's busy
 * handler, which blocks the event loop the lock holder needs to finish, so it
 * could only fail ("database is locked").
 */
const sqliteWriteQueues = new Map<string, WriteQueue>();
interface WriteQueue {
  chain: Promise<unknown>;
}
/** The SQLite transaction an async path runs in (work it spawns may outlive it: `open` says whether it still runs). */
interface TxMark {
  queue: WriteQueue;
  open: boolean;
}
/** A SELECT (the code's own reads start with `SELECT `: no pattern run for them on every read). */
const isRead = (sql: string) => sql.startsWith('SELECT ') || /^\s*SELECT\b/i.test(sql);
/** better-sqlite3 cannot bind booleans (TypeORM's runner converts them the same way). */
const bindable = (params: unknown[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

/** What the direct path (runSqlite) uses of a better-sqlite3 statement. */
interface SqliteStatement {
  /** true for a statement that returns rows (SELECT, RETURNING) */
  readonly reader: boolean;
  all(...p: unknown[]): unknown[];
  /** The first row (steps the statement once), or undefined. */
  get(...p: unknown[]): unknown;
  run(...p: unknown[]): { changes: number };
  /** From now on the statement returns its first column's value instead of row objects. */
  pluck(): SqliteStatement;
}

/** What the direct path and the WAL checkpointer use of better-sqlite3's Database. */
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  pragma(s: string): unknown;
}

/**
 * The database: a TypeORM DataSource on SQLite (better-sqlite3, WAL) or
 * PostgreSQL, schema by migrations on both, and `tx()` for transactions.
 * SQLite has one connection, so its transactions are serialized here (TypeORM
 * does not queue them), together with writes outside a transaction and with
 * the other engines of this process on the same file; PostgreSQL transactions
 * run concurrently from a pool.
 */
export class Database {
  readonly dialect: Dialect;
  private readonly writes: WriteQueue;
  /** PostgreSQL LISTEN/NOTIFY between the daemons on this database (a no-op on SQLite). */
  readonly notifications: Notifications;

  /** SQLite: checkpoints run in a thread of their own (the daemon, `backgroundCheckpoints`). */
  private checkpointer?: WalCheckpointer;

  constructor(
    readonly dataSource: DataSource,
    private readonly sqliteFile?: string,
    notifications?: Notifications,
  ) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
    this.notifications = notifications ?? new Notifications(undefined, 'public', false);
    let queue = sqliteFile ? sqliteWriteQueues.get(sqliteFile) : undefined;
    if (!queue) {
      queue = { chain: Promise.resolve() };
      if (sqliteFile) sqliteWriteQueues.set(sqliteFile, queue);
    }
    this.writes = queue;
  }

  static async open(
    config: Pick<TitledConfig, 'databaseUrl' | 'databaseSchema' | 'dataDir'> & { workers?: { notify?: boolean } },
    plugins: PluginSchema[] = [],
  ): Promise<Database> {
    // the entities (TypeORM's column decorators, about 8 MB) and DataSource load with the first database opened
    const { CORE_ENTITIES } = await import('./entities.js');
    const DataSource = dataSourceClass();
    const entities = [...CORE_ENTITIES, ...plugins.flatMap((p) => p.entities as unknown[])] as Function[];
    let ds: DataSource;
    let sqliteFile: string | undefined;
    if (config.databaseUrl) {
      const schema = config.databaseSchema;
      if (schema) await ensurePgSchema(config.databaseUrl, schema);
      ds = new DataSource({
        type: 'postgres',
        url: config.databaseUrl,
        schema,
        entities,
        migrations: [...POSTGRES_MIGRATIONS, ...plugins.flatMap((p) => p.migrations.postgres)],
        migrationsTableName: 'titled_migrations',
        extra: { max: 10, ...(schema ? { options: `-c search_path=${schema}` } : {}) },
      });
    } else {
      const dir = resolve(config.dataDir);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      sqliteFile = join(dir, 'titled.sqlite');
      // created 0600 (SQLite gives its -wal and -shm files the database file's mode); an older file is narrowed
      closeSync(openSync(sqliteFile, 'a', 0o600));
      for (const f of [sqliteFile, `${sqliteFile}-wal`, `${sqliteFile}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
      ds = new DataSource({
        type: 'better-sqlite3',
        database: sqliteFile,
        enableWAL: true,
        entities,
        migrations: [...SQLITE_MIGRATIONS, ...plugins.flatMap((p) => p.migrations.sqlite)],
        migrationsTableName: 'titled_migrations',
        prepareDatabase: (db: { pragma: (s: string) => unknown }) => {
          db.pragma('busy_timeout = 5000');
          db.pragma('synchronous = NORMAL');
        },
      });
    }
    await ds.initialize();
    const notify = !!config.databaseUrl && config.workers?.notify !== false;
    const notifications = new Notifications(config.databaseUrl, config.databaseSchema ?? 'public', notify);
    return new Database(ds, sqliteFile, notifications);
  }

  /** Applies pending migrations; returns the names applied. */
  async migrate(): Promise<string[]> {
    const run = () => this.dataSource.runMigrations({ transaction: 'each' });
    const applied = this.dialect === 'postgres' ? await run() : await this.serialized(run);
    return applied.map((m) => m.name);
  }

  async pendingMigrations(): Promise<boolean> {
    return this.dataSource.showMigrations();
  }

  /** Runs `fn` in a transaction; with `batch`, in a savepoint of the batch's transaction (see `batch`). */
  tx<T>(fn: (m: EntityManager) => Promise<T>, batch?: TxBatch): Promise<T> {
    if (batch) return (batch as OpenBatch).savepoint(fn);
    if (this.dialect === 'postgres') return this.dataSource.transaction(fn);
    return this.serialized(async () => {
      const current = { queue: this.writes, open: true };
      try {
        return await this.dataSource.transaction(async (m) => {
          // TypeORM opens a deferred transaction; a first write takes the write lock now, so another
          // process's commit between our read and our write cannot fail us with SQLITE_BUSY_SNAPSHOT
          // (busy_timeout waits for the lock instead).
          this.runSqlite('UPDATE "titled_migrations" SET "id" = "id" WHERE 0', []);
          return runInTransaction(current, () => fn(m));
        });
      } finally {
        current.open = false;
      }
    });
  }

  /**
   * Runs `fn` in one transaction that the `tx(..., batch)` calls it makes share: each runs in a savepoint of its
   * own, one at a time, so one that fails rolls back its own writes only and the others commit together (bulk
   * writes: one commit, one WAL sync, for many). Callbacks given to `batch.afterCommit` run once it committed.
   */
  async batch<T>(fn: (batch: TxBatch) => Promise<T>): Promise<T> {
    const after: (() => void)[] = [];
    const result = await this.tx((m) => fn(new OpenBatch(this, m, after)));
    for (const f of after) f();
    return result;
  }

  /** SQLite: this connection's page cache, at most `kib` KiB (better-sqlite3's default: 16 MB); PostgreSQL: none. */
  limitPageCache(kib: number): void {
    if (this.dialect === 'sqlite') this.sqliteConnection().pragma(`cache_size = ${-Math.max(1, Math.floor(kib))}`);
  }

  /** SQLite: runs `fn` when the writers before it (this process, this file) are done. */
  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    // every SQLite write of this process passes here: the checkpoint thread runs while there are writes
    this.checkpointer?.writing();
    const run = this.writes.chain.then(fn);
    this.writes.chain = run.catch(() => undefined);
    return run;
  }

  /** Raw SQL with `?` placeholders on both dialects; rows (of a SELECT or RETURNING) and the rows affected. */
  exec<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    manager?: EntityManager,
  ): Promise<{ rows: T[]; affected: number }> {
    if (this.dialect !== 'sqlite') return this.run<T>(sql, params, manager);
    // SQLite: a write outside a transaction waits for the transaction in progress (it would otherwise join it)
    if (!manager && !isRead(sql)) {
      const current = currentTransaction() as TxMark | undefined;
      if (!(current?.open && current.queue === this.writes)) return this.serialized(() => this.run<T>(sql, params));
    }
    return this.sqliteNow(() => this.runSqlite<T>(sql, params));
  }

  /** A statement run at once, as a promise (no async function around a synchronous call: every GET runs some). */
  private sqliteNow<R>(fn: () => R): Promise<R> {
    try {
      return Promise.resolve(fn());
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  private async run<T>(
    sql: string,
    params: unknown[],
    manager?: EntityManager,
  ): Promise<{ rows: T[]; affected: number }> {
    if (this.dialect === 'sqlite') return this.runSqlite<T>(sql, params);
    const runner = manager?.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      const r = await runner.query(this.dialect === 'postgres' ? toPg(sql) : sql, params, true);
      return { rows: (r.records ?? []) as T[], affected: r.affected ?? 0 };
    } finally {
      if (!manager?.queryRunner) await runner.release();
    }
  }

  /** Prepared statements of the direct SQLite path, by SQL text (the texts are the code's own: a bounded set). */
  private readonly sqliteStatements = new Map<string, SqliteStatement>();
  /** The same for `firstValue` (statements in pluck mode), by SQL text too: no key is built per call. */
  private readonly sqlitePluckStatements = new Map<string, SqliteStatement>();

  /**
   * Every raw statement on SQLite, straight on better-sqlite3's connection
   * (the one TypeORM's runners and transactions use, so a statement given a
   * transaction's manager runs inside it) with a statement prepared once: a
   * TypeORM query runner per statement (an EntityManager, a broadcaster, five
   * awaits) cost more than the statement itself on the hot paths (GET
   * /title/{id}, authentication, job claims, checkpoints). Results and errors
   * are TypeORM's: rows of a statement that returns rows (SELECT, RETURNING),
   * else the rows changed; errors are QueryFailedError (`driverError` carries
   * SQLite's code).
   */
  private runSqlite<T>(sql: string, params: unknown[]): { rows: T[]; affected: number } {
    try {
      const stmt = this.statement(sql, false);
      const values = bindable(params);
      return stmt.reader
        ? { rows: stmt.all(...values) as T[], affected: 0 }
        : { rows: [], affected: stmt.run(...values).changes };
    } catch (e) {
      throw new QueryFailedError(sql, params, e as Error);
    }
  }

  /** `sql` prepared once on the direct SQLite path; `pluck`: a statement of its own that returns values. */
  private statement(sql: string, pluck: boolean): SqliteStatement {
    const cache = pluck ? this.sqlitePluckStatements : this.sqliteStatements;
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = this.sqliteConnection().prepare(sql);
      if (pluck) stmt = stmt.pluck();
      if (cache.size >= 500) cache.clear();
      cache.set(sql, stmt);
    }
    return stmt;
  }

  /**
   * The first column of the first row of a raw SELECT (`?` placeholders), or undefined when it has no row. On SQLite
   * the statement stops at its first row, so the later arms of a UNION ALL do not run once an earlier one found it,
   * and no row object is made (GET /title/{id} reads its entry this way).
   */
  firstValue<T>(sql: string, params: unknown[] = []): Promise<T | undefined> {
    if (this.dialect !== 'sqlite') {
      return this.run<Record<string, T>>(sql, params).then(({ rows }) =>
        rows[0] === undefined ? undefined : Object.values(rows[0])[0],
      );
    }
    try {
      return Promise.resolve(this.statement(sql, true).get(...bindable(params)) as T | undefined);
    } catch (e) {
      return Promise.reject(new QueryFailedError(sql, params, e as Error));
    }
  }

  /** Rows of a raw SELECT (or RETURNING), `?` placeholders. */
  query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], manager?: EntityManager): Promise<T[]> {
    if (this.dialect === 'sqlite' && (manager || isRead(sql))) {
      return this.sqliteNow(() => this.runSqlite<T>(sql, params).rows);
    }
    return this.exec<T>(sql, params, manager).then((r) => r.rows);
  }

  async ping(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * SQLite: moves WAL checkpoints from the connection's commits to a worker
   * thread (core/db/wal-checkpointer.ts), for a daemon; a no-op on PostgreSQL
   * or when they run there already. Stopped by `close`.
   */
  backgroundCheckpoints(warn: (msg: string) => void): void {
    if (this.dialect !== 'sqlite' || !this.sqliteFile || this.checkpointer) return;
    this.checkpointer = new WalCheckpointer(this.sqliteFile, this.sqliteConnection(), warn);
  }

  /** The background checkpoints' threads and work (null without them); `running`: a thread runs now. */
  get checkpointStats(): (CheckpointStats & { running: boolean }) | null {
    const c = this.checkpointer;
    return c ? { ...c.stats, running: c.running } : null;
  }

  /** better-sqlite3's connection under TypeORM (SQLite only). */
  private sqliteConnection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    await this.notifications.close();
    await this.writes.chain.catch(() => undefined);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** A transaction shared by several writers, each in a savepoint of its own (`Database.batch`). */
export interface TxBatch {
  /** Runs `f` once the batch's transaction has committed (not when it rolls back). */
  afterCommit(f: () => void): void;
}

class OpenBatch implements TxBatch {
  /** Savepoints are a stack: one writer at a time. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly m: EntityManager,
    private readonly after: (() => void)[],
  ) {}

  afterCommit(f: () => void): void {
    this.after.push(f);
  }

  savepoint<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    const run = this.turn.then(() => this.inSavepoint(fn));
    this.turn = run.catch(() => undefined);
    return run;
  }

  private async inSavepoint<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    await this.db.exec('SAVEPOINT titled_batch_row', [], this.m);
    try {
      const result = await fn(this.m);
      await this.db.exec('RELEASE SAVEPOINT titled_batch_row', [], this.m);
      return result;
    } catch (e) {
      await this.db.exec('ROLLBACK TO SAVEPOINT titled_batch_row', [], this.m);
      await this.db.exec('RELEASE SAVEPOINT titled_batch_row', [], this.m);
      // PostgreSQL drops the notifications queued in the savepoint: the next writer sends its own
      this.db.notifications.forget(this.m);
      throw e;
    }
  }
}

/** `?` placeholders to PostgreSQL's `$1, $2, ...` (no `?` occurs inside our SQL literals). */
function toPg(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

async function ensurePgSchema(url: string, schema: string): Promise<void> {
  const ds = new (dataSourceClass())({ type: 'postgres', url });
  await ds.initialize();
  try {
    await ds.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await ds.destroy();
  }
}

/** True when `e` is a unique-constraint violation on either dialect. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; driverError?: { code?: string } };
  const code = err?.driverError?.code ?? err?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
