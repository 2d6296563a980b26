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
  PAYLOAD_TOO_LARGE: { status: 413, message: 'request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'request body must be application/json' },
  NOT_IMPLEMENTED: { status: 501, message: 'not implemented by the enabled stages' },
  INTERNAL: { status: 500, message: 'internal error' },
  UNAVAILABLE: { status: 503, message: 'service unavailable' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

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
  constructor(readonly stage: string, readonly entryId: string, cause: unknown, readonly retryable = true) {
    super(`stage '${stage}' failed for entry ${entryId}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StageError';
  }
}

/**
 * What a plugin's hook threw, wrapped with the plugin's name and the hook
 * (core/pipeline/hooks.ts). The original is `original`, not `cause`, so the
 * log shows its message once (pino appends causes' messages).
 */
export class PluginError extends Error {
  readonly original: unknown;
  constructor(readonly plugin: string, readonly hook: string, original: unknown) {
    super(`plugin '${plugin}' failed in ${hook}: ${original instanceof Error ? original.message : String(original)}`);
    this.name = 'PluginError';
    this.original = original;
    if (original instanceof Error && original.stack) this.stack = `${this.name}: ${this.message}\n${original.stack.split('\n').slice(1).join('\n')}`;
  }
}

/** Thrown by a stage to say: do not retry, the entry itself is the problem. */
export class PermanentStageFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentStageFailure';
  }
}

/** Errors at start-up: bad config, missing stage dependencies, registering after start. */
export class EngineConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineConfigError';
  }
}
