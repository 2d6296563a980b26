/**
 * The model part of the plugin API: the entry and its schemas, the domain
 * rules (transaction kinds, filing state, persons, addresses, state codes),
 * account provenance, statuses, errors and validation, with the pure part
 * (core/plugin-api-pure.ts). It loads zod and no service, database, HTTP
 * server or DI container. core/plugin-api.ts exports all of it too; a plugin
 * imports this module instead in code that only reads and checks entries and
 * data outside an engine: the state plugins' data modules (states/) and the
 * forms renderer import it, so a process that renders forms or loads the
 * states' fee schedules does not carry the engine's services (imported alone,
 * the whole API takes about 9 MB more resident memory than this part; the
 * forms renderer loads with 4 MB less). test/core/plugin-api.test.ts checks
 * that it stays a subset and loads none of the rest.
 */

// --- the model --------------------------------------------------------------------
export type { TitleEntry, DocumentUpload, DocumentType } from './model/entry.js';
export { DOCUMENT_TYPES } from './model/entry.js';
export * from './model/schemas.js';
export type { AccountAccess } from './model/account-book.js';
export {
  PRECEDENCE,
  OWNER_FIELDS,
  LIEN_FIELDS,
  TITLE_FIELDS,
  VEHICLE_FIELDS,
  REGISTRATION_FIELDS,
  sameValue,
  type AccountSource,
  type AccountSourceKind,
  type AccountReview,
  type MergeOutcome,
  type Discrepancy,
  type Match,
  type SourceRef,
  type Observation,
  type OtherTitle,
} from './model/account.js';
export * from './model/domain.js';
// names, JSON pointers, VIN helpers, packageRoot: the pure part, also importable on its own (worker threads, CLIs)
export * from './plugin-api-pure.js';
export { describeZodError, parseInput } from './model/validate.js';
export { mergePatch, isPlainObject, clone } from './merge.js';

// --- statuses -----------------------------------------------------------------------
export {
  JOB_STATUSES,
  ACCOUNT_STATUSES,
  PHYSICAL_TITLE_STATUSES,
  FOUND_STATUSES,
  FOUND_STATUS_FIELDS,
  FORMS_STATUSES,
  type JobStatus,
  type AccountStatus,
  type PhysicalTitleStatus,
  type FoundStatus,
  type FoundStatusField,
  type FormsStatus,
} from './status.js';
export {
  SUBMISSION_STATUSES,
  SUBMISSION_FINAL_STATUSES,
  SUBMISSION_STATUS_MOVES,
  assertSubmissionStatusMove,
  canMoveAccountStatus,
  type SubmissionStatus,
  SIGNATURE_REQUEST_STATUSES,
  SIGNATURE_REQUEST_STATUS_MOVES,
  isOpenSignatureStatus,
  assertSignatureRequestMove,
  type SignatureRequestStatus,
} from './status.js';

// --- errors -------------------------------------------------------------------------
export {
  TitledError,
  PermanentStageFailure,
  EngineConfigError,
  PluginError,
  isTitledError,
  ENGINE_ERRORS,
  LOG_CODES,
  type ErrorCode,
  type EngineErrorCode,
  type LogCode,
} from './errors.js';
