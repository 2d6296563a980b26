/**
 * Moves a submission through its status machine (core/status.ts) and, in the
 * same transaction, the entry's account_status through its own machine, with
 * the outbox events the webhooks deliver (docs/submission.md, "account_status").
 */
import type { EntityManager } from 'typeorm';
import {
  assertSubmissionStatusMove,
  canMoveAccountStatus,
  type AccountStatus,
  type Database,
  type Entries,
  type Logger,
  type SubmissionStatus,
  TitledError,
} from '../../core/plugin-api.js';
import { SubmissionRows, type Submission } from './model.js';

/**
 * The account_status steps a submission status asks for, in order. A step the
 * account status machine refuses from where the entry is ends the walk (the
 * entry may already be past it, or on a path the filing does not own).
 * ACCEPTED: `lien_filed`; `lien_perfected` too when the acceptance itself
 * records the lien (an online portal's acceptance, or an operator saying so).
 */
export function accountSteps(to: SubmissionStatus, perfected: boolean): AccountStatus[] {
  switch (to) {
    case 'SUBMITTED':
      return ['filing_en_route'];
    case 'UNDER_REVIEW':
      return ['filing_en_route', 'filing_received'];
    case 'ACCEPTED':
      return ['filing_en_route', 'filing_received', 'lien_filed', ...(perfected ? ['lien_perfected' as const] : [])];
    case 'REJECTED':
      return ['lien_error'];
    default:
      return [];
  }
}

export interface MoveOptions {
  by: string;
  note?: string;
  /** Members of the row to write with the move. */
  patch?: Partial<Submission>;
  /** ACCEPTED: whether the lien is perfected by the acceptance. */
  perfected?: boolean;
  /**
   * Work done in the move's transaction before the row is written (the MAIL label's fate on a cancel); a text it
   * returns is added to the history note.
   */
  within?: (m: EntityManager) => Promise<string | undefined>;
}

export class Lifecycle {
  readonly rows: SubmissionRows;

  constructor(
    private readonly db: Database,
    private readonly entries: Entries,
    private readonly log: Logger,
  ) {
    this.rows = new SubmissionRows(db);
  }

  /** Moves `s` to `to` (CONFLICT when the machine refuses it or someone moved it meanwhile); returns the new row. */
  async move(s: Submission, to: SubmissionStatus, o: MoveOptions): Promise<Submission> {
    assertSubmissionStatusMove(s.status, to);
    const now = Date.now();
    const changed = () => new TitledError('CONFLICT', `submission ${s.id} changed meanwhile; read it again`);
    await this.db.tx(async (m) => {
      // the history as stored now (a carrier note may have been added since `s` was read)
      const current = await this.rows.get(s.id, m);
      if (current?.status !== s.status) throw changed();
      const note = [o.note, o.within ? await o.within(m) : undefined].filter(Boolean).join('; ');
      const history = [
        ...current.history,
        { from: s.status, to, at: new Date(now).toISOString(), by: o.by, ...(note ? { note } : {}) },
      ];
      const patch: Partial<Submission> = { ...o.patch, status: to, history, statusSince: now, delayed: 0 };
      if (!(await this.rows.update(s.id, s.status, patch, m, current.history))) throw changed();
      await this.walkAccount(m, s, accountSteps(to, o.perfected ?? false), to);
    });
    this.log.info(
      { code: 'SUBMISSION_MOVED', submissionId: s.id, entryId: s.entryId, from: s.status, to, by: o.by },
      'submission moved',
    );
    return (await this.rows.get(s.id))!;
  }

  /**
   * Adds a history item without a status move (`from` and `to` the current status): what the carrier reported
   * or did to a MAIL packet. In `m` when given; compare-and-set on the history, read again when it changed.
   */
  async note(id: string, by: string, note: string, m?: EntityManager): Promise<void> {
    const run = async (tx: EntityManager) => {
      for (let i = 0; i < 5; i++) {
        const s = await this.rows.get(id, tx);
        if (!s) return;
        const item = { from: s.status, to: s.status, at: new Date().toISOString(), by, note };
        if (await this.rows.update(id, s.status, { history: [...s.history, item] }, tx, s.history)) return;
      }
      throw new TitledError('CONFLICT', `submission ${id} kept changing; its history note was not written`);
    };
    await (m ? run(m) : this.db.tx(run));
  }

  /** Writes members of the row without a status move (compare-and-set on the status). */
  async patch(s: Submission, patch: Partial<Submission>): Promise<Submission> {
    if (!(await this.rows.update(s.id, s.status, patch)))
      throw new TitledError('CONFLICT', `submission ${s.id} changed meanwhile; read it again`);
    return (await this.rows.get(s.id))!;
  }

  /** Moves account_status alone (lien_delay, lien_perfected recorded later), when its machine allows it. */
  async account(s: Submission, steps: AccountStatus[], cause: string, patch?: Partial<Submission>): Promise<void> {
    await this.db.tx(async (m) => {
      if (patch && !(await this.rows.update(s.id, s.status, patch, m)))
        throw new TitledError('CONFLICT', `submission ${s.id} changed meanwhile`);
      await this.walkAccount(m, s, steps, cause);
    });
  }

  private async walkAccount(m: EntityManager, s: Submission, steps: AccountStatus[], cause: string): Promise<void> {
    if (!steps.length) return;
    const found = await this.entries.load(s.orgId, s.entryId, m);
    if (!found) return;
    const entry = found.entry;
    let moved = false;
    const start = steps.indexOf(entry.account_status);
    for (const step of steps.slice(start + 1)) {
      if (!canMoveAccountStatus(entry.account_status, step)) {
        this.log.info(
          {
            code: 'SUBMISSION_ACCOUNT_STATUS_SKIPPED',
            submissionId: s.id,
            entryId: s.entryId,
            from: entry.account_status,
            to: step,
          },
          'account_status not moved by the submission',
        );
        break;
      }
      await this.entries.setStatus(m, s.orgId, entry, 'account_status', step, {
        submissionId: s.id,
        submission_status: cause,
      });
      moved = true;
    }
    if (moved) await this.entries.save(m, s.orgId, entry, found.version);
  }
}
