/**
 * The submission as stored (one `submissions` row) and as clients read it
 * (the spec's Submission), and the SQL that reads and writes the rows.
 */
import type { EntityManager } from 'typeorm';
import type { Database, SubmissionStatus } from '../../core/plugin-api.js';

export type SubmissionMethod = 'MAIL' | 'ONLINE_PORTAL';
export const METHODS: readonly SubmissionMethod[] = ['MAIL', 'ONLINE_PORTAL'];

/** A document of a follow-up round, stored under the entry. */
export interface RoundAttachment {
  filename: string;
  key: string;
  contentType: string;
  bytes: number;
  sha256: string;
  sourceUrl?: string;
}

/** One follow-up round: the documents a client added to answer a `feedbackMessage`. */
export interface FollowUpRound {
  roundId: string;
  uploadedAt: string;
  feedbackMessage: string | null;
  attachments: RoundAttachment[];
  /** When the documents reached the state (portal upload or operator), null until then. */
  sentAt: string | null;
}

export interface HistoryItem {
  from: string | null;
  to: string;
  at: string;
  by: string;
  note?: string;
}

export interface Submission {
  id: string;
  orgId: string;
  entryId: string;
  status: SubmissionStatus;
  method: SubmissionMethod | null;
  intakeMode: 'MANAGED' | null;
  applicationNumber: string | null;
  confirmationKey: string | null;
  packetKey: string | null;
  error: string | null;
  feedbackMessage: string | null;
  rounds: FollowUpRound[];
  ledger: Record<string, unknown>;
  history: HistoryItem[];
  request: Record<string, unknown>;
  attempts: number;
  nextAttemptAt: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  statusSince: number;
  delayed: number;
  createdAt: number;
  updatedAt: number;
}

const JSON_COLUMNS = ['rounds', 'ledger', 'history', 'request'] as const;
const NUMBER_COLUMNS = ['attempts', 'nextAttemptAt', 'statusSince', 'delayed', 'createdAt', 'updatedAt'] as const;

export function fromRow(r: Record<string, unknown>): Submission {
  const s = { ...r } as Record<string, unknown>;
  for (const k of JSON_COLUMNS) s[k] = JSON.parse(String(r[k]));
  for (const k of NUMBER_COLUMNS) s[k] = Number(r[k]);
  s.leaseExpiresAt = r.leaseExpiresAt === null || r.leaseExpiresAt === undefined ? null : Number(r.leaseExpiresAt);
  return s as unknown as Submission;
}

function toRow(s: Partial<Submission>): Record<string, unknown> {
  const r: Record<string, unknown> = { ...s };
  for (const k of JSON_COLUMNS) if (k in s) r[k] = JSON.stringify(s[k]);
  return r;
}

/**
 * A submission needs an operator when its MAIL packet came back (shipment status return_to_sender or failure)
 * and nothing moved it since (not final, no status change after the carrier's report). Kept equal to
 * MailShipping.needsAttention.
 */
const NEEDS_ATTENTION_SQL =
  "(status NOT IN ('ACCEPTED', 'REJECTED', 'CANCELED', 'ERROR') AND EXISTS (SELECT 1 FROM submission_shipments sh " +
  "WHERE sh.\"submissionId\" = submissions.id AND sh.status IN ('return_to_sender', 'failure') " +
  'AND submissions."statusSince" <= sh."updatedAt"))';

export class SubmissionRows {
  constructor(private readonly db: Database) {}

  async get(id: string, m?: EntityManager): Promise<Submission | null> {
    const rows = await this.db.query<Record<string, unknown>>('SELECT * FROM submissions WHERE id = ?', [id], m);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async insert(s: Submission, m?: EntityManager): Promise<void> {
    const r = toRow(s);
    const cols = Object.keys(r);
    await this.db.exec(
      `INSERT INTO submissions (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      cols.map((c) => r[c]),
      m,
    );
  }

  /**
   * Writes `patch` when the row still has status `expect` (compare-and-set), and, with `history`, still has
   * that history (an item added meanwhile is not overwritten); false when it does not.
   */
  async update(
    id: string,
    expect: SubmissionStatus,
    patch: Partial<Submission>,
    m?: EntityManager,
    history?: HistoryItem[],
  ): Promise<boolean> {
    const r = toRow({ ...patch, updatedAt: Date.now() });
    const cols = Object.keys(r);
    const res = await this.db.exec(
      `UPDATE submissions SET ${cols.map((c) => `"${c}" = ?`).join(', ')} WHERE id = ? AND status = ?` +
        (history ? ' AND history = ?' : ''),
      [...cols.map((c) => r[c]), id, expect, ...(history ? [JSON.stringify(history)] : [])],
      m,
    );
    return res.affected > 0;
  }

  /** The open (not final) submission of an entry, if any. */
  async open(orgId: string, entryId: string, m?: EntityManager): Promise<Submission | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT * FROM submissions WHERE "orgId" = ? AND "entryId" = ?
       AND status NOT IN ('ACCEPTED', 'REJECTED', 'CANCELED', 'ERROR')
       ORDER BY "createdAt" DESC LIMIT 1`,
      [orgId, entryId],
      m,
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async list(q: {
    orgId?: string;
    status?: string;
    entryId?: string;
    limit?: number;
    /** true: only those that need an operator (NEEDS_ATTENTION_SQL); false: only the others. */
    attention?: boolean;
  }): Promise<Submission[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.attention !== undefined) where.push(q.attention ? NEEDS_ATTENTION_SQL : `NOT ${NEEDS_ATTENTION_SQL}`);
    if (q.orgId) {
      where.push('"orgId" = ?');
      params.push(q.orgId);
    }
    if (q.status) {
      where.push('status = ?');
      params.push(q.status);
    }
    if (q.entryId) {
      where.push('"entryId" = ?');
      params.push(q.entryId);
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const sql = `SELECT * FROM submissions ${filter} ORDER BY "createdAt" DESC LIMIT ?`;
    return (await this.db.query<Record<string, unknown>>(sql, [...params, q.limit ?? 100])).map(fromRow);
  }
}
