/**
 * The signing plugin's tables and migrations (the plugin's static `schema`).
 * A new migration: change ./entities.ts, build, then
 *   node dist/core/db/gen-migration.js <Name> dist/plugins/signing/schema.js plugins/signing/migrations
 * and list the two files it writes below.
 */
import type { PluginSchema } from '../../core/plugin-api.js';
import { SIGNING_ENTITIES } from './entities.js';
import { Signing1795626421748 as PostgresSigning } from './migrations/postgres/1795626421748-Signing.js';
import { Signing1795626421748 as SqliteSigning } from './migrations/sqlite/1795626421748-Signing.js';

export const pluginSchema: PluginSchema = {
  entities: SIGNING_ENTITIES,
  migrations: { sqlite: [SqliteSigning], postgres: [PostgresSigning] },
};
