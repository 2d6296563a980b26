/**
 * Status machines. Every status change of an entry goes through `assertMove`,
 * and the caller writes the change's event to the outbox in the same
 * transaction (core/store/entry-store.ts does both).
 */
import { TitledError } from './errors.js';

export const JOB_STATUSES = ['pending', 'input_parsing', 'enriching', 'generating_forms', 'complete', 'error'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const ACCOUNT_STATUSES = [
  'originated', 'poa_sent', 'poa_signed', 'filing_en_route', 'filing_received', 'lien_delay', 'lien_error',
  'lien_filed', 'lien_perfected', 'account_paid', 'lien_release_pending', 'lien_release_complete',
] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Order of the processing phases; the pipeline only moves forward through it. */
export const JOB_PHASE_ORDER: Record<JobStatus, number> = {
  pending: 0, input_parsing: 1, enriching: 2, generating_forms: 3, complete: 4, error: 4,
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
  if (!canMoveJobStatus(from, to)) throw new TitledError('CONFLICT', `job_status cannot move from ${from} to ${to}`);
}
