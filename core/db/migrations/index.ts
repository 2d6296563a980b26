/** Migrations per dialect, in order. Add new ones with core/db/gen-migration.ts. */
import { Init1795214126610 as SqliteInit } from './sqlite/1795214126610-Init.js';
import { Init1795214126610 as PostgresInit } from './postgres/1795214126610-Init.js';
import { AccountSources1795614201470 as SqliteAccountSources } from './sqlite/1795614201470-AccountSources.js';
import { AccountSources1795614201470 as PostgresAccountSources } from './postgres/1795614201470-AccountSources.js';
import { Sessions1795620000000 as SqliteSessions } from './sqlite/1795620000000-Sessions.js';
import { Sessions1795620000000 as PostgresSessions } from './postgres/1795620000000-Sessions.js';
import { PiiKeysIdempotency1795623780483 as SqlitePiiKeys } from './sqlite/1795623780483-PiiKeysIdempotency.js';
import { PiiKeysIdempotency1795623780483 as PostgresPiiKeys } from './postgres/1795623780483-PiiKeysIdempotency.js';
import { RateLimits1795623790000 as PostgresRateLimits } from './postgres/1795623790000-RateLimits.js';
import { KeyRoles1795700000000 as SqliteKeyRoles } from './sqlite/1795700000000-KeyRoles.js';
import { KeyRoles1795700000000 as PostgresKeyRoles } from './postgres/1795700000000-KeyRoles.js';

export const SQLITE_MIGRATIONS: Function[] = [
  SqliteInit,
  SqliteAccountSources,
  SqliteSessions,
  SqlitePiiKeys,
  SqliteKeyRoles,
];
export const POSTGRES_MIGRATIONS: Function[] = [
  PostgresInit,
  PostgresAccountSources,
  PostgresSessions,
  PostgresPiiKeys,
  PostgresRateLimits,
  PostgresKeyRoles,
];
