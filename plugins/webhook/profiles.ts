/**
 * Webhook profiles (the spec's `webhook_profile`): per organization, one or
 * more endpoints with their subscribed events and outbound authentication.
 * Credentials and the signing secret are stored for use on every delivery;
 * listings show which credentials are set, never their values.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  isUniqueViolation,
  type Database,
  TitledError,
  UrlBlockedError,
  type UrlGuard,
} from '../../core/plugin-api.js';
import { parseSubscriptions } from './events.js';
import { newSigningSecret } from './signature.js';

export type WebhookAuth =
  | { scheme: 'basic'; username: string; password: string }
  | { scheme: 'bearer'; token?: string; partnerKey?: string }
  | { scheme: 'none' };

export interface WebhookProfile {
  id: string;
  orgId: string;
  url: string;
  events: string[];
  auth: WebhookAuth;
  /** `whsec_<base64>`: shown once by `webhooks set`, never in listings. */
  signingSecret: string;
  createdAt: number;
  updatedAt: number;
}

/** A profile as listings show it: no credential values, no signing secret. */
export interface WebhookProfileSummary {
  id: string;
  url: string;
  events: string[];
  auth: { scheme: WebhookAuth['scheme']; credentials: string[] };
  createdAt: number;
  updatedAt: number;
}

export interface SetProfileInput {
  url: string;
  events: readonly string[];
  auth: WebhookAuth;
  /** Issue a new signing secret when the profile exists (default: keep it). */
  rotateSecret?: boolean;
}

/** Checks an auth input: Basic needs both parts; Bearer a token and/or a partner key; none nothing. */
function checkAuth(auth: WebhookAuth): WebhookAuth {
  const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
  switch (auth.scheme) {
    case 'basic':
      if (!nonEmpty(auth.username) || !nonEmpty(auth.password))
        throw new TitledError('INVALID_INPUT', 'basic auth needs a username and a password');
      if (auth.username.includes(':'))
        throw new TitledError('INVALID_INPUT', 'a basic auth username cannot contain ":"');
      return { scheme: 'basic', username: auth.username, password: auth.password };
    case 'bearer':
      if (!nonEmpty(auth.token) && !nonEmpty(auth.partnerKey))
        throw new TitledError('INVALID_INPUT', 'bearer auth needs a token and/or a partner key');
      return {
        scheme: 'bearer',
        ...(auth.token ? { token: auth.token } : {}),
        ...(auth.partnerKey ? { partnerKey: auth.partnerKey } : {}),
      };
    case 'none':
      return { scheme: 'none' };
    default:
      throw new TitledError(
        'INVALID_INPUT',
        `unknown auth scheme '${(auth as { scheme: string }).scheme}' (basic, bearer or none)`,
      );
  }
}

/** The outbound authentication headers of a profile (spec, Authentication, outbound). */
export function authHeaders(auth: WebhookAuth): Record<string, string> {
  if (auth.scheme === 'basic')
    return { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` };
  if (auth.scheme === 'bearer') {
    const h: Record<string, string> = {};
    if (auth.token) h.authorization = `Bearer ${auth.token}`;
    if (auth.partnerKey) h['x-partner-key'] = auth.partnerKey;
    return h;
  }
  return {};
}

export function summarize(p: WebhookProfile): WebhookProfileSummary {
  const credentials: string[] = [];
  if (p.auth.scheme === 'basic') credentials.push('username', 'password');
  if (p.auth.scheme === 'bearer') {
    if (p.auth.token) credentials.push('token');
    if (p.auth.partnerKey) credentials.push('partner key');
  }
  return {
    id: p.id,
    url: p.url,
    events: [...p.events],
    auth: { scheme: p.auth.scheme, credentials },
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

function toProfile(r: Record<string, unknown>): WebhookProfile {
  const secrets = JSON.parse(String(r.authSecrets ?? '{}')) as Record<string, string>;
  const scheme = String(r.authScheme) as WebhookAuth['scheme'];
  const auth: WebhookAuth =
    scheme === 'basic'
      ? { scheme, username: secrets.username ?? '', password: secrets.password ?? '' }
      : scheme === 'bearer'
        ? {
            scheme,
            ...(secrets.token ? { token: secrets.token } : {}),
            ...(secrets.partnerKey ? { partnerKey: secrets.partnerKey } : {}),
          }
        : { scheme: 'none' };
  return {
    id: String(r.id),
    orgId: String(r.orgId),
    url: String(r.url),
    events: JSON.parse(String(r.events)) as string[],
    auth,
    signingSecret: String(r.signingSecret),
    createdAt: Number(r.createdAt),
    updatedAt: Number(r.updatedAt),
  };
}

function secretsOf(auth: WebhookAuth): string {
  if (auth.scheme === 'basic') return JSON.stringify({ username: auth.username, password: auth.password });
  if (auth.scheme === 'bearer') return JSON.stringify({ token: auth.token, partnerKey: auth.partnerKey });
  return '{}';
}

export class WebhookProfiles {
  constructor(
    private readonly db: Database,
    private readonly guard: UrlGuard,
  ) {}

  /**
   * Creates the organization's profile for `url`, or updates it (events,
   * auth) when the organization has one for that URL. The URL passes the
   * outbound guard now and again on every delivery.
   */
  async set(orgId: string, input: SetProfileInput): Promise<{ profile: WebhookProfile; created: boolean }> {
    let url: string;
    try {
      url = (await this.guard.check(input.url)).url.href;
    } catch (e) {
      if (e instanceof UrlBlockedError) {
        const host = hostOf(input.url);
        throw new TitledError(
          'INVALID_INPUT',
          `webhook URL refused: ${e.message}` +
            (host
              ? ` (to deliver to ${host} anyway, add it to the daemon's allow list: TITLED_ALLOW_HOSTS=${host} or config allowHosts, then restart the daemon)`
              : ''),
        );
      }
      throw e;
    }
    let events: string[];
    try {
      events = parseSubscriptions(input.events);
    } catch (e) {
      throw new TitledError('INVALID_INPUT', (e as Error).message);
    }
    const auth = checkAuth(input.auth);
    // reads first, then one write: a read-then-write transaction on SQLite fails at once
    // (SQLITE_BUSY) when another process wrote in between, so none is used here
    for (let attempt = 0; ; attempt++) {
      const now = Date.now();
      const existing = await this.find(undefined, 'SELECT * FROM webhook_profiles WHERE "orgId" = ? AND url = ?', [
        orgId,
        url,
      ]);
      try {
        if (existing) {
          const secret = input.rotateSecret ? newSigningSecret() : existing.signingSecret;
          await this.db.exec(
            'UPDATE webhook_profiles SET events = ?, "authScheme" = ?, "authSecrets" = ?, "signingSecret" = ?, "updatedAt" = ? WHERE id = ?',
            [JSON.stringify(events), auth.scheme, secretsOf(auth), secret, now, existing.id],
          );
          return { profile: { ...existing, events, auth, signingSecret: secret, updatedAt: now }, created: false };
        }
        const profile: WebhookProfile = {
          id: randomUUID(),
          orgId,
          url,
          events,
          auth,
          signingSecret: newSigningSecret(),
          createdAt: now,
          updatedAt: now,
        };
        await this.db.exec(
          'INSERT INTO webhook_profiles (id, "orgId", url, events, "authScheme", "authSecrets", "signingSecret", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          [
            profile.id,
            orgId,
            url,
            JSON.stringify(events),
            auth.scheme,
            secretsOf(auth),
            profile.signingSecret,
            now,
            now,
          ],
        );
        return { profile, created: true };
      } catch (e) {
        // a concurrent set of the same URL won the unique index: this one becomes an update
        if (isUniqueViolation(e) && attempt < 2) continue;
        throw e;
      }
    }
  }

  async list(orgId: string): Promise<WebhookProfile[]> {
    return (
      await this.db.query<Record<string, unknown>>(
        'SELECT * FROM webhook_profiles WHERE "orgId" = ? ORDER BY "createdAt", id',
        [orgId],
      )
    ).map(toProfile);
  }

  async get(id: string, m?: EntityManager): Promise<WebhookProfile | null> {
    return this.find(m, 'SELECT * FROM webhook_profiles WHERE id = ?', [id]);
  }

  /** Profiles of several organizations, by organization id. */
  async forOrgs(orgIds: readonly string[], m?: EntityManager): Promise<Map<string, WebhookProfile[]>> {
    const out = new Map<string, WebhookProfile[]>();
    if (orgIds.length === 0) return out;
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT * FROM webhook_profiles WHERE "orgId" IN (${orgIds.map(() => '?').join(', ')}) ORDER BY "createdAt", id`,
      [...orgIds],
      m,
    );
    for (const r of rows.map(toProfile)) out.set(r.orgId, [...(out.get(r.orgId) ?? []), r]);
    return out;
  }

  /**
   * Removes profiles of an organization: the one with `id` or `url`, or, with
   * neither, every profile it has. Their deliveries not yet sent are canceled.
   */
  async remove(orgId: string, which: { id?: string; url?: string } = {}): Promise<WebhookProfile[]> {
    let sql = 'SELECT * FROM webhook_profiles WHERE "orgId" = ?';
    const params: unknown[] = [orgId];
    if (which.id) {
      sql += ' AND id = ?';
      params.push(which.id);
    }
    if (which.url) {
      let url = which.url;
      try {
        url = new URL(which.url).href;
      } catch {
        /* compared as given */
      }
      sql += ' AND url = ?';
      params.push(url);
    }
    const gone = (await this.db.query<Record<string, unknown>>(sql, params)).map(toProfile);
    if (gone.length === 0) return gone;
    const ids = gone.map((p) => p.id);
    const marks = ids.map(() => '?').join(', ');
    // writes only in this transaction (see `set`)
    await this.db.tx(async (m) => {
      await this.db.exec(`DELETE FROM webhook_profiles WHERE id IN (${marks})`, ids, m);
      await this.db.exec(
        `UPDATE webhook_deliveries SET status = ?, "lastError" = ?, "updatedAt" = ? WHERE "profileId" IN (${marks}) AND status = ?`,
        ['canceled', 'profile removed', Date.now(), ...ids, 'pending'],
        m,
      );
    });
    return gone;
  }

  private async find(m: EntityManager | undefined, sql: string, params: unknown[]): Promise<WebhookProfile | null> {
    const rows = await this.db.query<Record<string, unknown>>(sql, params, m);
    return rows[0] ? toProfile(rows[0]) : null;
  }
}

/** The host of a URL, or null when it is not one. */
function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
