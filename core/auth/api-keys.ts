import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/database.js';
import { TitledError } from '../errors.js';

/** A new key as shown once to its owner: `tk_<16 hex>.<secret>`; only the secret's SHA-256 is stored. */
/**
 * What a key may do (docs/console.md): `operator` (the default) reads and
 * acts; `viewer` only reads (API writes and console actions answer 403);
 * `host` is an operator of every organization in the console.
 */
export const KEY_ROLES = ['operator', 'viewer', 'host'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

export interface IssuedKey {
  role: KeyRole;
  id: string;
  key: string;
  orgId: string;
  groups: string[] | null;
}

export interface ApiKeyInfo {
  id: string;
  orgId: string;
  groups: string[] | null;
  label: string | null;
  role: KeyRole;
  createdAt: number;
  revokedAt: number | null;
}

const ID_RE = /^tk_[0-9a-f]{16}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Splits `tk_<id>.<secret>` into its parts, or null when it is not shaped like a key. */
export function parseApiKey(key: string): { id: string; secret: string } | null {
  const dot = key.indexOf('.');
  if (dot < 0) return null;
  const id = key.slice(0, dot);
  const secret = key.slice(dot + 1);
  return ID_RE.test(id) && /^[A-Za-z0-9_-]{20,100}$/.test(secret) ? { id, secret } : null;
}

export class ApiKeys {
  constructor(private readonly db: Database) {}

  async create(
    orgId: string,
    opts: { groups?: string[] | null; label?: string; role?: KeyRole } = {},
  ): Promise<IssuedKey> {
    const role = opts.role ?? 'operator';
    if (!KEY_ROLES.includes(role))
      throw new TitledError('INVALID_INPUT', `role must be one of ${KEY_ROLES.join(', ')}`);
    const id = `tk_${randomBytes(8).toString('hex')}`;
    const secret = randomBytes(32).toString('base64url');
    const groups = opts.groups && opts.groups.length ? opts.groups : null;
    for (const g of groups ?? []) {
      if (!g || g.length > 200 || g.includes('\u0000'))
        throw new TitledError('INVALID_INPUT', 'a group id is 1-200 characters without NUL');
    }
    await this.db.exec(
      'INSERT INTO api_keys (id, "orgId", "secretHash", groups, label, "createdAt", role) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        id,
        orgId,
        sha256(secret),
        groups ? JSON.stringify(groups) : null,
        opts.label ?? null,
        Date.now(),
        role === 'operator' ? null : role,
      ],
    );
    return { id, key: `${id}.${secret}`, orgId, groups, role };
  }

  /** The key's record when `id` and `secret` match an unrevoked key, else null. */
  async verify(id: string, secret: string): Promise<ApiKeyInfo | null> {
    const r = await this.row(id);
    if (!r || r.revokedAt !== null) return null;
    const ok = timingSafeEqual(Buffer.from(String(r.secretHash), 'hex'), Buffer.from(sha256(secret), 'hex'));
    return ok ? toInfo(r) : null;
  }

  async get(id: string): Promise<ApiKeyInfo | null> {
    const r = await this.row(id);
    return r ? toInfo(r) : null;
  }

  private async row(id: string): Promise<Record<string, unknown> | null> {
    if (!ID_RE.test(id)) return null;
    const rows = await this.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = ?', [id]);
    return rows[0] ?? null;
  }

  async list(orgId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM api_keys WHERE "orgId" = ? ORDER BY "createdAt"',
      [orgId],
    );
    return rows.map(toInfo);
  }

  async revoke(id: string): Promise<void> {
    const { affected } = await this.db.exec(
      'UPDATE api_keys SET "revokedAt" = ? WHERE id = ? AND "revokedAt" IS NULL',
      [Date.now(), id],
    );
    if (affected !== 1) {
      const k = await this.get(id);
      throw new TitledError(k ? 'CONFLICT' : 'NOT_FOUND', k ? `key ${id} is already revoked` : `no key ${id}`);
    }
  }
}

function toInfo(r: Record<string, unknown>): ApiKeyInfo {
  return {
    id: String(r.id),
    orgId: String(r.orgId),
    groups: r.groups ? (JSON.parse(String(r.groups)) as string[]) : null,
    label: (r.label as string | null) ?? null,
    role: (r.role as KeyRole | null) ?? 'operator',
    createdAt: Number(r.createdAt),
    revokedAt: r.revokedAt === null ? null : Number(r.revokedAt),
  };
}
