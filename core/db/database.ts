import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataSource, type EntityManager, type MixedList, type EntitySchema } from 'typeorm';
import type { TitledConfig } from '../config.js';
import { CORE_ENTITIES } from './entities.js';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './migrations/index.js';

export type Dialect = 'sqlite' | 'postgres';

/** Extra tables a plugin brings: its entities and, per dialect, its migrations. */
export interface PluginSchema {
  entities: MixedList<Function | string | EntitySchema>;
  migrations: { sqlite: Function[]; postgres: Function[] };
}

/**
 * The database: a TypeORM DataSource on SQLite (better-sqlite3, WAL) or
 * PostgreSQL, schema by migrations on both, and `tx()` for transactions.
 * SQLite has one connection, so its transactions are serialized here (TypeORM
 * does not queue them); PostgreSQL transactions run concurrently from a pool.
 */
export class Database {
  readonly dialect: Dialect;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  static async open(config: Pick<TitledConfig, 'databaseUrl' | 'databaseSchema' | 'dataDir'>, plugins: PluginSchema[] = []): Promise<Database> {
    const entities = [...CORE_ENTITIES, ...plugins.flatMap((p) => p.entities as unknown[])] as Function[];
    let ds: DataSource;
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
      mkdirSync(dir, { recursive: true });
      ds = new DataSource({
        type: 'better-sqlite3',
        database: join(dir, 'titled.sqlite'),
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
    return new Database(ds);
  }

  /** Applies pending migrations; returns the names applied. */
  async migrate(): Promise<string[]> {
    const applied = await this.dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  }

  async pendingMigrations(): Promise<boolean> {
    return this.dataSource.showMigrations();
  }

  /** Runs `fn` in a transaction. */
  tx<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    if (this.dialect === 'postgres') return this.dataSource.transaction(fn);
    const run = this.chain.then(() => this.dataSource.transaction(fn));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Raw SQL with `?` placeholders on both dialects; rows (of a SELECT or RETURNING) and the rows affected. */
  async exec<T = Record<string, unknown>>(sql: string, params: unknown[] = [], manager?: EntityManager): Promise<{ rows: T[]; affected: number }> {
    const runner = manager?.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      const r = await runner.query(this.dialect === 'postgres' ? toPg(sql) : sql, params, true);
      return { rows: (r.records ?? []) as T[], affected: r.affected ?? 0 };
    } finally {
      if (!manager?.queryRunner) await runner.release();
    }
  }

  /** Rows of a raw SELECT (or RETURNING), `?` placeholders. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], manager?: EntityManager): Promise<T[]> {
    return (await this.exec<T>(sql, params, manager)).rows;
  }

  async ping(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.chain.catch(() => undefined);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** `?` placeholders to PostgreSQL's `$1, $2, ...` (no `?` occurs inside our SQL literals). */
function toPg(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

async function ensurePgSchema(url: string, schema: string): Promise<void> {
  const ds = new DataSource({ type: 'postgres', url });
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
