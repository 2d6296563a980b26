/**
 * The title-collection plugin's tables and migrations (the plugin's static `schema`).
 * A new migration: change ./entities.ts, build, then
 *   node dist/core/db/gen-migration.js <Name> dist/plugins/title-collection/schema.js plugins/title-collection/migrations
 * and list the two files it writes below.
 */
import type { PluginSchema } from '../../core/plugin-api.js';
import { TITLE_COLLECTION_ENTITIES } from './entities.js';
import { TitleCollections1795623822677 as PostgresTitleCollections } from './migrations/postgres/1795623822677-TitleCollections.js';
import { TitleCollections1795623822677 as SqliteTitleCollections } from './migrations/sqlite/1795623822677-TitleCollections.js';

export const pluginSchema: PluginSchema = {
  entities: TITLE_COLLECTION_ENTITIES,
  migrations: { sqlite: [SqliteTitleCollections], postgres: [PostgresTitleCollections] },
};
