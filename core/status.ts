/**
 * Status machines. Every status change of an entry goes through `assertMove`,
 * and the caller writes the change's event to the outbox in the same
 * transaction (core/store/entry-store.ts does both).
 */
import { TitledError } from './errors.js';

export const JOB_STATUSES = ['pending', 'input_parsing', 'enriching', 'generating_forms', 'complete', 'error'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const ACCOUNT_STATUSES = [
  'originated',
  'poa_sent',
  'poa_signed',
  'filing_en_route',
  'filing_received',
  'lien_delay',
  'lien_error',
  'lien_filed',
  'lien_perfected',
  'account_paid',
  'lien_release_pending',
  'lien_release_complete',
] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Order of the processing phases; the pipeline only moves forward through it. */
export const JOB_PHASE_ORDER: Record<JobStatus, number> = {
  pending: 0,
  input_parsing: 1,
  enriching: 2,
  generating_forms: 3,
  complete: 4,
  error: 4,
};

/**
 * job_status moves (docs/statuses.md). Requests may restart processing from
 * any state: a create or update without sync flags moves to `pending`; a sync
 * flag, `/data` or `/fees` moves to `enriching` (spec table: "any"). The
 * pipeline moves forward only, and any in-progress state may fail to `error`.
 */
export const JOB_STATUS_MOVES: Record<JobStatus, readonly JobStatus[]> = {
  pending: ['pending', 'input_parsing', 'enriching', 'generating_forms', 'complete', 'error'],
  input_parsing: ['pending', 'enriching', 'generating_forms', 'complete', 'error'],
  enriching: ['pending', 'enriching', 'generating_forms', 'complete', 'error'],
  generating_forms: ['pending', 'enriching', 'complete', 'error'],
  complete: ['pending', 'enriching'],
  error: ['pending', 'enriching'],
};

export function canMoveJobStatus(from: JobStatus, to: JobStatus): boolean {
  return JOB_STATUS_MOVES[from].includes(to);
}

export function assertJobStatusMove(from: JobStatus, to: JobStatus): void {
  assertMove('job_status', JOB_STATUS_MOVES, from, to);
}

/**
 * account_status moves (docs/statuses.md). The happy path is
 * originated -> poa_sent -> poa_signed -> filing_en_route -> filing_received
 * -> lien_filed -> lien_perfected -> account_paid -> lien_release_pending ->
 * lien_release_complete; `lien_delay` and `lien_error` are detours the filing
 * can take and come back from; a loan can be paid off at any point before the
 * release starts.
 */
export const ACCOUNT_STATUS_MOVES: Record<AccountStatus, readonly AccountStatus[]> = {
  originated: ['poa_sent', 'poa_signed', 'filing_en_route', 'lien_delay', 'lien_error', 'account_paid'],
  poa_sent: ['originated', 'poa_signed', 'lien_delay', 'lien_error', 'account_paid'],
  poa_signed: ['poa_sent', 'filing_en_route', 'lien_delay', 'lien_error', 'account_paid'],
  filing_en_route: ['filing_received', 'lien_delay', 'lien_error', 'account_paid'],
  filing_received: ['lien_filed', 'lien_delay', 'lien_error', 'account_paid'],
  lien_delay: ['poa_sent', 'filing_en_route', 'filing_received', 'lien_filed', 'lien_error', 'account_paid'],
  lien_error: ['poa_sent', 'poa_signed', 'filing_en_route', 'lien_delay', 'account_paid'],
  lien_filed: ['lien_perfected', 'lien_error', 'account_paid'],
  lien_perfected: ['account_paid', 'lien_error'],
  account_paid: ['lien_release_pending'],
  lien_release_pending: ['lien_release_complete', 'lien_error'],
  lien_release_complete: [],
};

export const PHYSICAL_TITLE_STATUSES = ['in_transit', 'received', 'unavailable', 'skipped'] as const;
export type PhysicalTitleStatus = (typeof PHYSICAL_TITLE_STATUSES)[number];

/**
 * physical_title_status moves. An entry starts with none (absent); the spec's
 * known move is unavailable -> in_transit | received. `received` and
 * `skipped` are final.
 */
export const PHYSICAL_TITLE_STATUS_MOVES: Record<PhysicalTitleStatus | 'none', readonly PhysicalTitleStatus[]> = {
  none: ['in_transit', 'received', 'unavailable', 'skipped'],
  in_transit: ['received', 'unavailable'],
  unavailable: ['in_transit', 'received'],
  received: [],
  skipped: [],
};

/** Checks a move in one of the status tables; throws CONFLICT naming the field. */
export function assertMove<S extends string>(
  field: string,
  table: Record<string, readonly S[]>,
  from: string,
  to: S,
): void {
  if (!(table[from] ?? []).includes(to))
    throw new TitledError(
      'CONFLICT',
      `${field} cannot move from ${from} to ${to} (allowed: ${(table[from] ?? []).join(', ') || 'none'})`,
    );
}

export const FOUND_STATUSES = ['pending', 'found', 'not_found', 'error', 'unavailable', 'skipped'] as const;
export type FoundStatus = (typeof FOUND_STATUSES)[number];
/** The entry fields that hold a found status (spec: Enrichment fields), one per pull source. */
export const FOUND_STATUS_FIELDS = [
  'nmvtis_found_status',
  'state_found_status',
  'portal_found_status',
  'public_found_status',
] as const;
export type FoundStatusField = (typeof FOUND_STATUS_FIELDS)[number];

/**
 * Found-status moves of a pull (`nmvtis_found_status`, `state_found_status`,
 * `portal_found_status`, `public_found_status`). A requested pull is
 * `pending` and settles as `found`, `not_found`, `error` (service failure),
 * `unavailable` (source down) or `skipped` (could not be attempted); a
 * resync moves any settled status back to `pending`.
 */
export const FOUND_STATUS_MOVES: Record<FoundStatus | 'none', readonly FoundStatus[]> = {
  none: ['pending'],
  pending: ['found', 'not_found', 'error', 'unavailable', 'skipped'],
  found: ['pending'],
  not_found: ['pending'],
  error: ['pending'],
  unavailable: ['pending'],
  skipped: ['pending'],
};

export const FORMS_STATUSES = ['generated', 'skipped_no_data', 'skipped_no_spec', 'skipped_no_state', 'error'] as const;
export type FormsStatus = (typeof FORMS_STATUSES)[number];

/**
 * forms_status moves. Every generation (the pipeline's forms stage or
 * POST /title/{id}/forms) decides the status afresh from the entry as it is
 * then, so any status may follow any other, and the first one follows none.
 */
export const FORMS_STATUS_MOVES: Record<FormsStatus | 'none', readonly FormsStatus[]> = {
  none: FORMS_STATUSES,
  generated: FORMS_STATUSES,
  skipped_no_data: FORMS_STATUSES,
  skipped_no_spec: FORMS_STATUSES,
  skipped_no_state: FORMS_STATUSES,
  error: FORMS_STATUSES,
};

export const SUBMISSION_STATUSES = [
  'AWAITING_READINESS',
  'PENDING',
  'SUBMITTED',
  'UNDER_REVIEW',
  'ACTION_REQUIRED',
  'ACCEPTED',
  'REJECTED',
  'CANCELED',
  'ERROR',
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
/** Statuses a submission never leaves; clients poll until one of them. */
export const SUBMISSION_FINAL_STATUSES: readonly SubmissionStatus[] = ['ACCEPTED', 'REJECTED', 'CANCELED', 'ERROR'];

/**
 * Submission status moves (docs/statuses.md, docs/submission.md). A managed
 * request waits in AWAITING_READINESS until an operator marks it ready
 * (PENDING); the worker (portal) or the shipped packet (mail) makes it
 * SUBMITTED; the state's answers move it on. A follow-up round takes an
 * ACTION_REQUIRED submission back to the state (SUBMITTED). Any status
 * before a final one may be CANCELED; ERROR is the worker giving up.
 */
export const SUBMISSION_STATUS_MOVES: Record<SubmissionStatus, readonly SubmissionStatus[]> = {
  AWAITING_READINESS: ['PENDING', 'CANCELED'],
  PENDING: ['SUBMITTED', 'CANCELED', 'ERROR'],
  SUBMITTED: ['UNDER_REVIEW', 'ACTION_REQUIRED', 'ACCEPTED', 'REJECTED', 'CANCELED', 'ERROR'],
  UNDER_REVIEW: ['ACTION_REQUIRED', 'ACCEPTED', 'REJECTED', 'CANCELED', 'ERROR'],
  ACTION_REQUIRED: ['SUBMITTED', 'REJECTED', 'CANCELED', 'ERROR'],
  ACCEPTED: [],
  REJECTED: [],
  CANCELED: [],
  ERROR: [],
};

export function assertSubmissionStatusMove(from: SubmissionStatus, to: SubmissionStatus): void {
  assertMove('submission status', SUBMISSION_STATUS_MOVES, from, to);
}

/** Whether account_status may move from `from` to `to` (the table above). */
export function canMoveAccountStatus(from: AccountStatus, to: AccountStatus): boolean {
  return ACCOUNT_STATUS_MOVES[from].includes(to);
}

export const SIGNATURE_REQUEST_STATUSES = [
  'DRAFT',
  'SENT',
  'PARTIALLY_SIGNED',
  'COMPLETED',
  'DECLINED',
  'EXPIRED',
  'CANCELED',
] as const;
export type SignatureRequestStatus = (typeof SIGNATURE_REQUEST_STATUSES)[number];

/**
 * Signature request moves (plugins/signing, docs/statuses.md). A request is
 * created DRAFT; `?Action=ACTIVATE` sends it; the first signature makes it
 * PARTIALLY_SIGNED (or COMPLETED when it was the only one missing). A signer
 * may decline, the expiry may pass, an operator may cancel while it is open.
 * COMPLETED, DECLINED, EXPIRED and CANCELED are final.
 */
export const SIGNATURE_REQUEST_STATUS_MOVES: Record<SignatureRequestStatus, readonly SignatureRequestStatus[]> = {
  DRAFT: ['SENT', 'CANCELED', 'EXPIRED'],
  SENT: ['PARTIALLY_SIGNED', 'COMPLETED', 'DECLINED', 'EXPIRED', 'CANCELED'],
  PARTIALLY_SIGNED: ['PARTIALLY_SIGNED', 'COMPLETED', 'DECLINED', 'EXPIRED', 'CANCELED'],
  COMPLETED: [],
  DECLINED: [],
  EXPIRED: [],
  CANCELED: [],
};

/** Whether a signature request in this status is open (at most one open request per entry). */
export function isOpenSignatureStatus(s: SignatureRequestStatus): boolean {
  return s === 'DRAFT' || s === 'SENT' || s === 'PARTIALLY_SIGNED';
}

export function assertSignatureRequestMove(from: SignatureRequestStatus, to: SignatureRequestStatus): void {
  assertMove('signature request status', SIGNATURE_REQUEST_STATUS_MOVES, from, to);
}
