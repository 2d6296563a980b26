/**
 * titled as a library: `createEngine(config)` and the public types for
 * embedding the engine and writing stage plugins.
 */
export {
  createEngine,
  type Engine,
  type EngineOptions,
  type PluginCatalog,
  type PluginCatalogEntry,
} from './engine.js';
export { resolveConfig, ConfigSchema, type TitledConfig, type TitledConfigInput } from './config.js';
export {
  isStagePlugin,
  type StagePlugin,
  type StagePluginClass,
  type StageContext,
  type StageAction,
  type EnginePlugin,
  type EnginePluginClass,
  type RouteHelpers,
} from './pipeline/stage.js';
export type { PluginSchema } from './db/database.js';
export type { JobInput } from './jobs/job-queue.js';
export type { TitleEntry, DocumentUpload } from './model/entry.js';
export * from './model/schemas.js';
export { JOB_STATUSES, ACCOUNT_STATUSES, type JobStatus, type AccountStatus } from './status.js';
export { TitledError, PermanentStageFailure, EngineConfigError, ERROR_CATALOG, type ErrorCode } from './errors.js';
export type { Principal } from './auth/authenticator.js';
export type { Organization } from './auth/organizations.js';
export { EntryObjects, ObjectStore } from './storage/object-store.js';
export { TOKENS } from './tokens.js';
export { checkVin, normalizeVin, computeCheckDigit } from './vin.js';
export { mergePatch } from './merge.js';
export { Entries } from './service/entries.js';
export type { IssuedKey, ApiKeyInfo } from './auth/api-keys.js';
