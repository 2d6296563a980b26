import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';

interface SessionRow {
  id: string;
  orgId: string;
  keyId: string | null;
  expiresAt: number;
  revokedAt: number | null;
}

/** How long an expired or ended session's row is kept before it is pruned (at the next login). */
const KEEP_ENDED_MS = 24 * 3600 * 1000;

/**
 * Login sessions, server-side: the session cookie is a signed token naming a
 * row here, so a session can be ended before its expiry (logout) on every
 * daemon sharing the database.
 */
export class Sessions {
  constructor(private readonly db: Database) {}

  async create(orgId: string, keyId: string | null, expiresAt: number): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    await this.db.exec(
      'INSERT INTO sessions (id, "orgId", "keyId", "expiresAt", "revokedAt", "createdAt") VALUES (?, ?, ?, ?, NULL, ?)',
      [id, orgId, keyId, expiresAt, now],
    );
    await this.db.exec('DELETE FROM sessions WHERE "expiresAt" < ?', [now - KEEP_ENDED_MS]);
    return id;
  }

  /** The session when it exists, has not ended and has not expired; else null. */
  async live(id: string): Promise<SessionRow | null> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT id, "orgId", "keyId", "expiresAt", "revokedAt" FROM sessions WHERE id = ?',
      [id],
    );
    const r = rows[0];
    if (!r) return null;
    const row: SessionRow = {
      id: String(r.id),
      orgId: String(r.orgId),
      keyId: r.keyId === null ? null : String(r.keyId),
      expiresAt: Number(r.expiresAt),
      revokedAt: r.revokedAt === null ? null : Number(r.revokedAt),
    };
    return row.revokedAt === null && row.expiresAt > Date.now() ? row : null;
  }

  /** Ends a session (logout); ending one that already ended changes nothing. */
  async end(id: string): Promise<void> {
    await this.db.exec('UPDATE sessions SET "revokedAt" = ? WHERE id = ? AND "revokedAt" IS NULL', [Date.now(), id]);
  }
}
