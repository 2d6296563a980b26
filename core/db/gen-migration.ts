/**
 * Developer tool: writes a migration for both dialects from the difference
 * between the entities and the current migrations.
 *   npm run build && node dist/core/db/gen-migration.js Name [plugin-schema-module.js plugins/<name>/migrations]
 * A plugin's migrations go to the folder given as the last argument (its
 * `migrations/` folder); the core's to core/db/migrations.
 * It migrates a scratch SQLite file and a scratch PostgreSQL schema to the
 * current state, asks TypeORM's schema builder for what is missing, and
 * writes core/db/migrations/{sqlite,postgres}/<timestamp>-<Name>.ts.
 */
import 'reflect-metadata';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Database, type PluginSchema } from './database.js';
import { packageRoot } from '../paths.js';

const name = process.argv[2];
if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
  console.error('usage: gen-migration.js PascalCaseName [module exporting pluginSchema]');
  process.exit(2);
}
const plugins: PluginSchema[] = process.argv[3]
  ? [(await import(join(process.cwd(), process.argv[3]))).pluginSchema]
  : [];
const stamp = Date.now();
const pgUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

for (const dialect of ['sqlite', 'postgres'] as const) {
  const schema = `gen_${stamp}`;
  const db = await Database.open(
    dialect === 'sqlite'
      ? { dataDir: mkdtempSync(join(tmpdir(), 'titled-gen-')) }
      : { dataDir: '.', databaseUrl: pgUrl, databaseSchema: schema },
    plugins,
  );
  await db.migrate();
  const log = await db.dataSource.driver.createSchemaBuilder().log();
  // the scratch schema's name must not end up in the migration (it runs in whatever schema the engine uses)
  const unqualify = (sql: string) => sql.split(`"${schema}".`).join('');
  const lines = (qs: { query: string; parameters?: unknown[] }[]) =>
    qs.map((q) => `    await queryRunner.query(${JSON.stringify(unqualify(q.query))});`).join('\n');
  const cls = `${name}${stamp}`;
  const body = `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${cls} implements MigrationInterface {
  name = '${cls}';

  async up(queryRunner: QueryRunner): Promise<void> {
${lines(log.upQueries)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${lines([...log.downQueries].reverse())}
  }
}
`;
  const outDir = process.argv[4]
    ? resolve(packageRoot, process.argv[4])
    : join(packageRoot, 'core', 'db', 'migrations');
  const file = join(outDir, dialect, `${stamp}-${name}.ts`);
  writeFileSync(file, body);
  console.log(`${dialect}: ${log.upQueries.length} statements -> ${file}`);
  if (dialect === 'postgres') await db.query(`DROP SCHEMA "${schema}" CASCADE`);
  await db.close();
}
