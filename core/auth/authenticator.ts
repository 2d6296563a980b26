import { createHash, createPublicKey, hash, type KeyObject } from 'node:crypto';
import type * as Jose from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import type { TitledConfig } from '../config.js';
import { TitledError } from '../errors.js';
import type { ApiKeys } from './api-keys.js';
import { parseApiKey, KEY_ROLES, type KeyRole } from './api-keys.js';
import type { Organization, Organizations } from './organizations.js';
import type { Sessions } from './sessions.js';

/** Who is calling: resolved from the credential, never from a request body. */
export interface Principal {
  org: Organization;
  /** The creator recorded on entries (`userId`): the key id, or the JWT's user claim. */
  userId: string;
  email?: string;
  /** Groups the caller may see; null = no group restriction (docs/auth.md). */
  groups: string[] | null;
  via: 'api_key' | 'basic' | 'jwt' | 'session';
  keyId?: string;
  /** What the caller may do: `viewer` only reads; `host` is an operator of every organization (console). Absent = operator. */
  role?: KeyRole;
  /** When the credential stops being valid (epoch ms): a JWT's `exp`, a session's end; absent for API keys. */
  expiresAt?: number;
}

const SESSION_ISSUER = 'titled-session';

let jose: typeof Jose | undefined;
/**
 * jose (46 modules), loaded with the first JWT or session cookie (docs/operations.md, "Memory"): a daemon whose
 * callers send API keys never needs it.
 */
const loadJose = async (): Promise<typeof Jose> => jose ?? (jose = await import('jose'));

const denied = (why: string) => new TitledError('UNAUTHENTICATED', why);
/** Longest user id and group id stored (duplicate_pointers.userId, entries.groupId). */
const MAX_ID_LENGTH = 200;
/** An id from a JWT claim the database can store: at most MAX_ID_LENGTH characters, no NUL (PostgreSQL text cannot hold it). */
const storable = (s: string) => s.length <= MAX_ID_LENGTH && !s.includes('\u0000');

/**
 * The groups claim of a JWT: absent = no restriction; one group may come as a
 * single value; any other shape is refused (never read as "no restriction").
 */
function jwtGroups(claim: unknown, name: string): string[] | null {
  const isId = (g: unknown) => typeof g === 'string' || typeof g === 'number';
  if (claim === undefined || claim === null) return null;
  if (isId(claim)) return jwtGroups([claim], name);
  if (Array.isArray(claim) && claim.every(isId)) {
    const groups = claim.map(String);
    if (!groups.every(storable))
      throw denied(
        `JWT '${name}' claim holds a group id longer than ${MAX_ID_LENGTH} characters or with a NUL character`,
      );
    return groups;
  }
  throw denied(`JWT '${name}' claim must be a group id or an array of group ids`);
}

/**
 * Resolves a Principal from `Authorization: Bearer <API key | JWT>`,
 * `Authorization: Basic <key id:secret>` or the session cookie (the session
 * travels in the cookie only: there is no `Authorization: Session` scheme).
 * Verified credentials are cached for `auth.keyCacheMs` (revocation and
 * logout take effect on other daemons within that time).
 */
export class Authenticator {
  private readonly cache = new Map<string, { principal: Principal; until: number }>();
  private jwtKey?: KeyObject | Uint8Array | JWTVerifyGetKey;
  private readonly sessionKey: Uint8Array;

  constructor(
    private readonly config: Readonly<TitledConfig>,
    private readonly orgs: Organizations,
    private readonly keys: ApiKeys,
    secret: string,
    private readonly sessions: Sessions,
  ) {
    this.sessionKey = createHash('sha256').update(`session:${secret}`).digest();
  }

  authenticate(authorization: string | undefined, sessionCookie: string | undefined): Promise<Principal> {
    const header = authorization?.trim();
    if (!header && !sessionCookie) {
      return Promise.reject(
        denied('missing credentials: send Authorization: Bearer <API key or JWT>, Basic, or the session cookie'),
      );
    }
    const cacheKey = header ? cacheKeyOf('header', header) : cacheKeyOf('cookie', sessionCookie!);
    const hit = this.cache.get(cacheKey);
    // a cached credential (most requests) costs no async function
    if (hit && hit.until > Date.now()) return Promise.resolve(hit.principal);
    return this.verify(cacheKey, header, sessionCookie);
  }

  private async verify(cacheKey: string, header: string | undefined, sessionCookie: string | undefined) {
    const { principal, until } = header ? await this.resolve(header) : await this.fromSession(sessionCookie!);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, { principal, until: Math.min(until, Date.now() + this.config.auth.keyCacheMs) });
    return principal;
  }

  private async resolve(cred: string): Promise<{ principal: Principal; until: number }> {
    const space = cred.indexOf(' ');
    const scheme = space > 0 ? cred.slice(0, space).toLowerCase() : '';
    const value = space > 0 ? cred.slice(space + 1).trim() : '';
    const forever = Number.MAX_SAFE_INTEGER;
    if (scheme === 'bearer') {
      const key = parseApiKey(value);
      if (key) return { principal: await this.fromKey(key.id, key.secret, 'api_key'), until: forever };
      if (value.split('.').length === 3) return this.fromJwt(value);
      throw denied('bearer token is neither an API key nor a JWT');
    }
    if (scheme === 'basic') {
      let decoded = '';
      try {
        decoded = Buffer.from(value, 'base64').toString('utf8');
      } catch {
        /* falls through to the error below */
      }
      const colon = decoded.indexOf(':');
      if (colon < 0) throw denied('basic credentials must be base64 of "<key id>:<secret>"');
      return {
        principal: await this.fromKey(decoded.slice(0, colon), decoded.slice(colon + 1), 'basic'),
        until: forever,
      };
    }
    throw denied('unsupported authorization scheme: use Bearer or Basic (a session travels in its cookie)');
  }

  private async fromKey(id: string, secret: string, via: 'api_key' | 'basic'): Promise<Principal> {
    const info = await this.keys.verify(id, secret);
    if (!info) throw denied('invalid or revoked API key');
    const org = await this.orgs.byId(info.orgId);
    if (!org) throw denied("the key's organization no longer exists");
    return { org, userId: info.id, groups: info.groups, via, keyId: info.id, role: info.role };
  }

  private async verifyKey(): Promise<KeyObject | Uint8Array | JWTVerifyGetKey> {
    if (this.jwtKey) return this.jwtKey;
    const jwt = this.config.auth.jwt;
    if (!jwt) throw denied('JWT authentication is not configured');
    if (jwt.jwksUrl) this.jwtKey = (await loadJose()).createRemoteJWKSet(new URL(jwt.jwksUrl));
    else if (jwt.publicKey!.trim().startsWith('{'))
      this.jwtKey = (await (await loadJose()).importJWK(JSON.parse(jwt.publicKey!))) as KeyObject | Uint8Array;
    else this.jwtKey = createPublicKey(jwt.publicKey!);
    return this.jwtKey;
  }

  private async fromJwt(token: string): Promise<{ principal: Principal; until: number }> {
    const jwt = this.config.auth.jwt;
    if (!jwt) throw denied('JWT authentication is not configured');
    let payload: JWTPayload;
    try {
      const key = await this.verifyKey();
      const { jwtVerify } = jose ?? (await loadJose());
      ({ payload } = await jwtVerify(token, key as KeyObject, {
        issuer: jwt.issuer,
        audience: jwt.audience,
        algorithms: jwt.algorithms,
        requiredClaims: ['exp'],
      }));
    } catch (e) {
      throw denied(`invalid JWT: ${(e as Error).message}`);
    }
    const orgName = payload[jwt.orgClaim];
    if (typeof orgName !== 'string' || !storable(orgName)) throw denied(`JWT has no usable '${jwt.orgClaim}' claim`);
    const org = await this.orgs.byName(orgName);
    if (!org) throw denied(`JWT names unknown organization '${orgName}'`);
    const groups = jwtGroups(payload[jwt.groupsClaim], jwt.groupsClaim);
    const userId = payload[jwt.userClaim];
    const email = payload[jwt.emailClaim];
    // a JWT may make its user a viewer or an operator (never host: that is a key's role)
    const claimed = payload[jwt.roleClaim];
    const role: KeyRole = claimed === 'viewer' ? 'viewer' : 'operator';
    if (typeof userId === 'string' && !storable(userId))
      throw denied(`JWT '${jwt.userClaim}' claim is longer than ${MAX_ID_LENGTH} characters or holds a NUL character`);
    return {
      principal: {
        org,
        userId: typeof userId === 'string' ? userId : 'jwt',
        email: typeof email === 'string' ? email : undefined,
        groups,
        via: 'jwt',
        expiresAt: payload.exp! * 1000,
        role,
      },
      until: payload.exp! * 1000,
    };
  }

  /**
   * Starts a session for the cookie: a row in `sessions` (so logout ends it on
   * the server) and an HS256 token naming it, signed with the server secret.
   * It ends after `auth.sessionTtlSeconds`, or when the credential it was
   * minted from does (a JWT's `exp`), whichever comes first.
   */
  async issueSession(p: Principal): Promise<{ token: string; expiresAt: number }> {
    const expiresAt = Math.min(
      Date.now() + this.config.auth.sessionTtlSeconds * 1000,
      p.expiresAt ?? Number.MAX_SAFE_INTEGER,
    );
    const exp = Math.floor(expiresAt / 1000);
    if (exp * 1000 <= Date.now()) throw denied('the credential expires too soon to start a session');
    const { SignJWT } = jose ?? (await loadJose());
    const id = await this.sessions.create(p.org.id, p.keyId ?? null, exp * 1000);
    const token = await new SignJWT({
      org: p.org.id,
      groups: p.groups,
      kid: p.keyId,
      email: p.email,
      via: p.via,
      role: p.role,
    })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(SESSION_ISSUER)
      .setSubject(p.userId)
      .setJti(id)
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(this.sessionKey);
    return { token, expiresAt: exp * 1000 };
  }

  /** Ends the session a cookie holds (logout); a cookie that is not a valid session token is ignored. */
  async endSession(token: string): Promise<void> {
    this.cache.delete(cacheKeyOf('cookie', token));
    let payload: JWTPayload;
    try {
      const { jwtVerify } = jose ?? (await loadJose());
      ({ payload } = await jwtVerify(token, this.sessionKey, { issuer: SESSION_ISSUER, algorithms: ['HS256'] }));
    } catch {
      return;
    }
    if (typeof payload.jti === 'string') await this.sessions.end(payload.jti);
  }

  private async fromSession(token: string): Promise<{ principal: Principal; until: number }> {
    let payload: JWTPayload;
    try {
      const { jwtVerify } = jose ?? (await loadJose());
      ({ payload } = await jwtVerify(token, this.sessionKey, {
        issuer: SESSION_ISSUER,
        algorithms: ['HS256'],
        requiredClaims: ['jti', 'exp'],
      }));
    } catch {
      throw denied('invalid or expired session');
    }
    const session = await this.sessions.live(String(payload.jti));
    if (!session || session.orgId !== String(payload.org))
      throw denied('the session has ended (logged out or expired)');
    let role: KeyRole = KEY_ROLES.includes(payload.role as KeyRole) ? (payload.role as KeyRole) : 'operator';
    if (typeof payload.kid === 'string') {
      const key = await this.keys.get(payload.kid);
      if (!key || key.revokedAt) throw denied("the session's API key was revoked");
      role = key.role;
    } else if (role === 'host') {
      role = 'operator';
    }
    const org = await this.orgs.byId(session.orgId);
    if (!org) throw denied("the session's organization no longer exists");
    return {
      principal: {
        org,
        userId: String(payload.sub),
        email: typeof payload.email === 'string' ? payload.email : undefined,
        groups: Array.isArray(payload.groups) ? payload.groups.map(String) : null,
        via: 'session',
        keyId: typeof payload.kid === 'string' ? payload.kid : undefined,
        expiresAt: session.expiresAt,
        role,
      },
      until: session.expiresAt,
    };
  }
}

/** The credential cache's key: a hash of where the credential came from and its text. */
function cacheKeyOf(source: 'header' | 'cookie', credential: string): string {
  return hash('sha256', `${source}\n${credential}`, 'base64');
}
