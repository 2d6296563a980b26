/**
 * The submission plugin's tables and migrations (the plugin's static `schema`).
 * A new migration: change ./entities.ts, build, then
 *   node dist/core/db/gen-migration.js <Name> dist/plugins/submission/schema.js plugins/submission/migrations
 * and list the two files it writes below.
 */
import type { PluginSchema } from '../../core/plugin-api.js';
import { SUBMISSION_ENTITIES } from './entities.js';
import { Submissions1795623693620 as PostgresSubmissions } from './migrations/postgres/1795623693620-Submissions.js';
import { Submissions1795623693620 as SqliteSubmissions } from './migrations/sqlite/1795623693620-Submissions.js';
import { Shipments1795655216615 as PostgresShipments } from './migrations/postgres/1795655216615-Shipments.js';
import { Shipments1795655216615 as SqliteShipments } from './migrations/sqlite/1795655216615-Shipments.js';

export const pluginSchema: PluginSchema = {
  entities: SUBMISSION_ENTITIES,
  migrations: { sqlite: [SqliteSubmissions, SqliteShipments], postgres: [PostgresSubmissions, PostgresShipments] },
};
