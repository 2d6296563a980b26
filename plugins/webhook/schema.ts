/**
 * The webhook plugin's tables and migrations (the plugin's static `schema`).
 * A new migration: change ./entities.ts, build, then
 *   node dist/core/db/gen-migration.js <Name> dist/plugins/webhook/schema.js plugins/webhook/migrations
 * and list the two files it writes below.
 */
import type { PluginSchema } from '../../core/plugin-api.js';
import { WEBHOOK_ENTITIES } from './entities.js';
import { Webhooks1795214973393 as PostgresWebhooks } from './migrations/postgres/1795214973393-Webhooks.js';
import { Webhooks1795214973393 as SqliteWebhooks } from './migrations/sqlite/1795214973393-Webhooks.js';

export const pluginSchema: PluginSchema = {
  entities: WEBHOOK_ENTITIES,
  migrations: { sqlite: [SqliteWebhooks], postgres: [PostgresWebhooks] },
};
