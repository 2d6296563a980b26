/**
 * One catalog of coded errors. Core throws these; the HTTP layer maps them to
 * the spec's error body `{error, statusCode, disallowedFields?}` in one place.
 * `docs/errors.md` lists the same codes (a test keeps the two equal).
 */
export const ERROR_CATALOG = {
  INVALID_JSON: { status: 400, message: 'request body is not valid JSON' },
  INVALID_INPUT: { status: 400, message: 'invalid input' },
  INVALID_VIN: { status: 400, message: 'invalid VIN' },
  NO_SYNC_FLAG: { status: 400, message: 'at least one of sync_nmvtis, sync_public, sync_private must be true' },
  ENTRY_NOT_FOUND_FOR_DATA: { status: 400, message: 'entry not found' },
  UNAUTHENTICATED: { status: 403, message: 'missing or invalid credentials' },
  FORBIDDEN: { status: 403, message: 'forbidden' },
  DISALLOWED_FIELDS: { status: 403, message: 'only account_data may be patched' },
  NOT_FOUND: { status: 404, message: 'not found' },
  ENTRY_NOT_FOUND: { status: 404, message: 'entry not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'method not allowed' },
  NO_ACCOUNT_DATA: { status: 409, message: 'entry has no account_data' },
  VIN_CONFLICT: { status: 409, message: 'another entry of this organization has that VIN' },
  CONFLICT: { status: 409, message: 'conflict' },
  PULL_FOUND_NOTHING: { status: 422, message: 'the enrichment providers found nothing for this vehicle' },
  TITLE_MISMATCH: { status: 409, message: 'the received title does not match the entry' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'this Idempotency-Key was used with a different request' },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, message: 'a request with this Idempotency-Key is still running' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'request body must be application/json' },
  RATE_LIMITED: { status: 429, message: 'too many requests' },
  TOO_MANY_REQUESTS: { status: 429, message: 'too many requests; try again later' },
  NOT_IMPLEMENTED: { status: 501, message: 'not implemented by the enabled stages' },
  CARRIER_ERROR: { status: 502, message: 'the carrier failed' },
  INTERNAL: { status: 500, message: 'internal error' },
  UNAVAILABLE: { status: 503, message: 'service unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** Errors of the engine itself (never a client's body): their codes, as log lines and `job_error` carry them. */
export const ENGINE_ERRORS = {
  ENGINE_CONFIG: 'start-up refused: bad configuration, a missing plugin or dependency, a plugin that cannot be built',
  STAGE_FAILED: "a stage's run threw (the job is retried, or fails for good after the last try)",
  PERMANENT_STAGE_FAILURE: 'a stage said retrying cannot help (the job fails at once)',
  PLUGIN_FAILED: 'a plugin hook other than run threw (appliesTo, present, requested, abandoned, routes, start, stop)',
} as const;
export type EngineErrorCode = keyof typeof ENGINE_ERRORS;

/** The `code` of every log line the engine and its plugins write. docs/errors.md lists the same (a test keeps them equal). */
export const LOG_CODES = {
  INTERNAL: 'a request failed with an unexpected error (the client got 500)',
  QUEUE_POLL_FAILED: 'claiming jobs failed (the next poll tries again)',
  JOB_COMPLETE: 'a job ran every stage that applied',
  JOB_FAILED: 'a job failed for good (job_status error)',
  JOB_GONE: 'a job stopped because its entry was deleted or its lease went to another worker',
  STAGE_DONE: 'a stage checkpointed (debug)',
  STAGE_REPLAY: 'a stage runs again: someone changed the same members meanwhile',
  STAGE_FAILED: "a synchronous action's stage failed",
  STAGE_FAILED_RETRY: 'a stage (or a hook) failed; the job will be retried',
  PROGRESS_NOT_WRITTEN: "a stage's progress could not be written (the checkpoint still is)",
  STOP_TIMEOUT: 'a plugin did not stop in time',
  IDEMPOTENCY_PRUNE_FAILED: 'deleting expired idempotency keys failed (tried again a minute later)',
  RATE_LIMIT_STORE_FAILED: "the rate limiter's store failed; the request was let through",
  VIN_CHECK_DIGIT_MISMATCH: "a VIN's check digit does not match (accepted and flagged)",
  VIN_CONFLICT: 'a document shows a VIN another entry of the organization has',
  DOCUMENT_READ: 'a document was read',
  DOCUMENT_REJECTED: 'a document was refused (fetch refused, not a supported format, too many documents)',
  DOCUMENT_FAILED: 'a document could not be read',
  DOCUMENT_ANALYSIS_FAILED: 'document analysis threw',
  EXTRACTED_DATA_INVALID: "a document's extracted data does not fit the schema; it is not merged",
  ENRICHMENT_PULL: 'an enrichment pull ended (found, not_found, error, unavailable, skipped)',
  VPIC_DECODE_FAILED: 'the vPIC decode gave nothing; offline decode only',
  FEES_ESTIMATED: 'a fee estimate was written',
  FORMS_ERROR: 'forms could not be generated (forms_status error)',
  FORM_TEMPLATE_FALLBACK: 'an official template was missing or unusable; the drawn layout was used',
  FORM_DOWNLOAD_NOT_COUNTED: 'a form download could not be counted',
  ODOMETER_CHECKED: 'the example odometer-check plugin checked an entry',
  WEBHOOKS_STARTED: 'webhook delivery started',
  WEBHOOK_DISPATCHED: 'outbox events were turned into deliveries',
  WEBHOOK_DISPATCH_FAILED: 'dispatching outbox events failed (retried)',
  WEBHOOK_CLAIM_FAILED: 'claiming deliveries failed (retried)',
  WEBHOOK_DELIVERED: 'a delivery was answered 2xx',
  WEBHOOK_RETRY: 'a delivery failed and will be retried',
  WEBHOOK_FAILED: 'a delivery failed for good',
  WEBHOOK_ATTEMPT_CRASHED: 'a delivery attempt threw unexpectedly',
  WEBHOOK_REPLAY: 'an operator replayed a delivery',
  WEBHOOK_PROFILE_SET: 'a webhook profile was created or changed',
  WEBHOOK_PROFILE_REMOVED: 'a webhook profile was removed',
  LEGACY_LISTENING: 'the legacy interface listens on a port of its own',
  LEGACY_POA: 'a legacy POST /poa made a power of attorney (and a signature request when signing is enabled)',
  NOTIFY_CONNECTION_LOST: 'the PostgreSQL LISTEN connection dropped; polling covers until it is back',
  NOTIFY_LISTENER_FAILED: 'a LISTEN/NOTIFY wake-up handler threw',
  PRUNED: 'the pruning loop removed old rows (counts by table)',
  PRUNE_FAILED: 'a pruning pass failed (the next one tries again)',
  WAL_CHECKPOINT_FALLBACK:
    "SQLite WAL checkpoints could not run in their thread: they are back on the daemon's connection (commits may pause)",
  SECRET_NOT_SHARED: 'daemons may share this database or bucket, but no `secret` is set: each data folder has its own',
  TITLE_COLLECTION_CREATED: 'a title collection (carrier return shipment, label, QR) was created',
  TITLE_COLLECTION_EVENT: 'a carrier tracking event or a facility action was applied to a title collection',
  TITLE_COLLECTION_POLL_FAILED: 'polling a carrier for tracking events failed (the next poll tries again)',
  CARRIER_WEBHOOK_REFUSED: 'a carrier tracking webhook was refused (bad or missing signature)',
  SUBMISSION_MOVED: 'a submission changed status',
  SUBMISSION_WORKER_STARTED: 'the submission portal worker started',
  SUBMISSION_STEP_FAILED: 'a portal step of a submission failed (retried, or ERROR after the last try)',
  SUBMISSION_ACCOUNT_STATUS_SKIPPED:
    'a submission move could not move account_status (the account status machine refuses it)',
  SUBMISSION_LABEL_CREATED: 'an outbound carrier label was bought for a MAIL filing packet (mailCarrier)',
  SUBMISSION_SHIPMENT_EVENT:
    "a carrier tracking event was applied to a MAIL packet's shipment (delivered: the submission moves to SUBMITTED)",
  SUBMISSION_SHIPMENT_POLL_FAILED:
    "polling the carrier for a MAIL packet's tracking failed (the next poll tries again)",
  SUBMISSION_SHIPMENT_UNDELIVERED:
    "a MAIL packet's shipment came back (return_to_sender) or failed: the submission stays, with a history note, for an operator",
  SUBMISSION_LABEL_VOIDED:
    "a canceled submission's MAIL packet label, not yet scanned, was voided at the carrier (refund asked)",
  SUBMISSION_LABEL_VOID_FAILED:
    "voiding a canceled submission's MAIL packet label failed at the carrier (the cancel stands; the shipment poll tries again)",
  SUBMISSION_LABEL_VOID_REJECTED:
    "the carrier refused to void a canceled submission's MAIL packet label (it was used): its tracking continues",
  DAEMON_INFO_FAILED: 'the daemon could not write <dataDir>/daemon.json (CLI commands then use their own config)',
  SIGNING_STARTED: 'the signing plugin started (reminders and expiry loop)',
  SIGNING_SENT: 'a signature request was sent to its signers',
  SIGNING_SIGNED: 'a signer signed',
  SIGNING_COMPLETED: 'every signer signed; the signed copies were sealed',
  SIGNING_FINALIZE_FAILED: 'sealing a completed request failed (the background loop retries)',
  SIGNING_NOTIFY_FAILED: 'an email or SMS to a signer could not be sent',
  SIGNING_TICK_FAILED: 'a pass of the reminder and expiry loop failed (the next pass tries again)',
} as const;
export type LogCode = keyof typeof LOG_CODES;

export class TitledError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly disallowedFields?: string[];
  /** Whether the message may be shown to a client (internal errors are not). */
  readonly expose: boolean;

  constructor(code: ErrorCode, message?: string, extra: { disallowedFields?: string[]; cause?: unknown } = {}) {
    const entry = ERROR_CATALOG[code];
    super(message ?? entry.message, { cause: extra.cause });
    this.name = 'TitledError';
    this.code = code;
    this.status = entry.status;
    this.disallowedFields = extra.disallowedFields;
    this.expose = entry.status < 500 || entry.status === 501 || entry.status === 503;
  }
}

export const isTitledError = (e: unknown): e is TitledError => e instanceof TitledError;

/** A failure inside a stage plugin, wrapped with the stage's name (the log line names it). */
export class StageError extends Error {
  readonly code: EngineErrorCode = 'STAGE_FAILED';
  constructor(
    readonly stage: string,
    readonly entryId: string,
    cause: unknown,
    readonly retryable = true,
  ) {
    super(`stage '${stage}' failed for entry ${entryId}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'StageError';
  }
}

/**
 * What a plugin's hook threw, wrapped with the plugin's name and the hook
 * (core/pipeline/hooks.ts). The original is `original`, not `cause`, so the
 * log shows its message once (pino appends causes' messages).
 */
export class PluginError extends Error {
  readonly code: EngineErrorCode = 'PLUGIN_FAILED';
  readonly original: unknown;
  constructor(
    readonly plugin: string,
    readonly hook: string,
    original: unknown,
  ) {
    super(`plugin '${plugin}' failed in ${hook}: ${original instanceof Error ? original.message : String(original)}`);
    this.name = 'PluginError';
    this.original = original;
    if (original instanceof Error && original.stack)
      this.stack = `${this.name}: ${this.message}\n${original.stack.split('\n').slice(1).join('\n')}`;
  }
}

/** Thrown by a stage to say: do not retry, the entry itself is the problem. */
export class PermanentStageFailure extends Error {
  readonly code: EngineErrorCode = 'PERMANENT_STAGE_FAILURE';
  constructor(message: string) {
    super(message);
    this.name = 'PermanentStageFailure';
  }
}

/** Errors at start-up: bad config, missing stage dependencies, registering after start. */
export class EngineConfigError extends Error {
  readonly code: EngineErrorCode = 'ENGINE_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'EngineConfigError';
  }
}
