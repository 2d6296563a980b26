import { expect } from 'chai';
import { exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountData, basic, createEntry, expectError, makeVin, CORE_ONLY } from '../http/support.js';

const COOKIE = 'titled_session';

/** The Set-Cookie line of the session cookie, split into its value and lower-cased attributes. */
function sessionCookie(headers: Headers): { value: string; attrs: Record<string, string | true> } {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`));
  expect(line, `Set-Cookie ${COOKIE} in ${JSON.stringify(headers.getSetCookie())}`).to.be.a('string');
  const [pair, ...rest] = line!.split(';').map((s) => s.trim());
  const attrs: Record<string, string | true> = {};
  for (const a of rest) {
    const eq = a.indexOf('=');
    if (eq < 0) attrs[a.toLowerCase()] = true;
    else attrs[a.slice(0, eq).toLowerCase()] = a.slice(eq + 1);
  }
  return { value: pair!.slice(COOKIE.length + 1), attrs };
}

const withCookie = (value: string) => ({ key: null, headers: { cookie: `${COOKIE}=${value}` } });

describe('auth: session cookie', () => {
  let t: TestEngine;
  let id: string;

  before(async () => {
    t = await startTestEngine({ config: { ...CORE_ONLY, auth: { keyCacheMs: 0 } } });
    id = await createEntry(t, { account_data: accountData(makeVin()) });
  });
  after(async () => {
    await t?.stop();
  });

  async function login(key = t.org.key): Promise<string> {
    const res = await t.request('POST', '/auth/login', { key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.organization).to.equal(t.org.name);
    return sessionCookie(res.headers).value;
  }

  it('POST /auth/login with an API key sets an HttpOnly, SameSite cookie scoped to /', async () => {
    const res = await t.request('POST', '/auth/login');
    expect(res.status).to.equal(200);
    expect(res.body).to.have.all.keys('organization', 'expiresAt');
    expect(Date.parse(res.body.expiresAt)).to.be.greaterThan(Date.now());
    const c = sessionCookie(res.headers);
    expect(c.value).to.match(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(c.attrs.httponly).to.equal(true);
    expect(c.attrs.samesite).to.equal('lax');
    expect(c.attrs.path).to.equal('/');
    expect(Date.parse(String(c.attrs.expires))).to.be.greaterThan(Date.now());
    // the API key itself is not the cookie
    expect(c.value).to.not.include(t.org.key.split('.')[1]);
  });

  it('POST /auth/login also takes Basic credentials', async () => {
    const secret = t.org.key.slice(t.org.key.indexOf('.') + 1);
    const res = await t.request('POST', '/auth/login', {
      key: null,
      headers: { authorization: basic(t.org.keyId, secret) },
    });
    expect(res.status).to.equal(200);
    sessionCookie(res.headers);
  });

  it('POST /auth/login refuses bad, missing and session credentials with 403 and sets no cookie', async () => {
    for (const o of [
      { key: null },
      { key: `${t.org.keyId}.${'A'.repeat(43)}` },
      { key: null, headers: { authorization: `Session ${await login()}` } },
    ]) {
      const res = await t.request('POST', '/auth/login', o);
      expectError(res, 403);
      expect(res.headers.getSetCookie().filter((c) => c.startsWith(`${COOKIE}=`))).to.deep.equal([]);
    }
  });

  it('a request with only the cookie is authenticated as the key that logged in', async () => {
    const cookie = await login();
    const got = await t.request('GET', `/title/${id}`, withCookie(cookie));
    expect(got.status).to.equal(200);
    expect(got.body.entryId).to.equal(id);
    const created = await t.request('POST', '/title', {
      ...withCookie(cookie),
      body: { account_data: accountData(makeVin()) },
    });
    expect(created.status).to.equal(200);
    const entry = await t.request('GET', `/title/${created.body.entryId}`, withCookie(cookie));
    expect(entry.body.userId).to.equal(t.org.keyId);
    expect(entry.body.website).to.equal(t.org.name);
  });

  it('a tampered cookie is refused with 403', async () => {
    const cookie = await login();
    const [h, p, s] = cookie.split('.') as [string, string, string];
    // a changed claim (another user) under the old signature
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedPayload = Buffer.from(JSON.stringify({ ...payload, sub: 'someone-else' })).toString('base64url');
    // a signature with one character changed in the middle (not the last one, whose low bits may be padding)
    const mid = Math.floor(s.length / 2);
    const flipped = s.slice(0, mid) + (s[mid] === 'A' ? 'B' : 'A') + s.slice(mid + 1);
    for (const bad of [`${h}.${forgedPayload}.${s}`, `${h}.${p}.${flipped}`, `${h}.${p}.`, 'garbage', `${cookie}x`]) {
      expectError(await t.request('GET', `/title/${id}`, withCookie(bad)), 403);
    }
  });

  it('a session token signed with alg none is refused', async () => {
    const cookie = await login();
    const p = cookie.split('.')[1];
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
    expectError(await t.request('GET', `/title/${id}`, withCookie(none)), 403);
  });

  it('POST /auth/logout clears the cookie', async () => {
    const cookie = await login();
    const res = await t.request('POST', '/auth/logout', withCookie(cookie));
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ statusCode: 200, message: 'logged out' });
    const c = sessionCookie(res.headers);
    expect(c.value).to.equal('');
    expect(Date.parse(String(c.attrs.expires))).to.be.at.most(Date.now());
    expect(c.attrs.httponly).to.equal(true);
    expect(c.attrs.path).to.equal('/');
  });

  it('a cookie of a revoked key is refused', async () => {
    const org = (await t.engine.orgs.byName(t.org.name))!;
    const k = await t.engine.keys.create(org.id);
    const cookie = await login(k.key);
    expect((await t.request('GET', `/title/${id}`, withCookie(cookie))).status).to.equal(200);
    await t.engine.keys.revoke(k.id);
    expectError(await t.request('GET', `/title/${id}`, withCookie(cookie)), 403);
    expectError(await t.request('GET', '/title', withCookie(cookie)), 403);
  });

  it('a cookie of another engine (another server secret) is refused', async () => {
    const other = await startTestEngine({ config: CORE_ONLY });
    try {
      const res = await other.request('POST', '/auth/login');
      const foreign = sessionCookie(res.headers).value;
      expectError(await t.request('GET', '/title', withCookie(foreign)), 403);
    } finally {
      await other.stop();
    }
  });
});

describe('auth: sessions end with their credential and on logout (issue 13, items 5 and 10)', () => {
  const ISSUER = 'https://idp.example.test/';
  const AUDIENCE = 'titled-api';
  let t: TestEngine;
  let priv: CryptoKey;
  let id: string;

  before(async () => {
    const pair = await generateKeyPair('RS256');
    priv = pair.privateKey;
    const publicKey = await exportSPKI(pair.publicKey);
    t = await startTestEngine({
      config: {
        ...CORE_ONLY,
        auth: { keyCacheMs: 60_000, jwt: { publicKey, issuer: ISSUER, audience: AUDIENCE, orgClaim: 'org' } },
      },
    });
    id = await createEntry(t, { account_data: accountData(makeVin()) });
  });
  after(async () => {
    await t?.stop();
  });

  it('a session minted from a JWT ends no later than the JWT', async () => {
    const exp = Math.floor(Date.now() / 1000) + 120;
    const jwt = await new SignJWT({ org: t.org.name, sub: 'u-1' })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt()
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(exp)
      .sign(priv);
    const res = await t.request('POST', '/auth/login', { key: null, headers: { authorization: `Bearer ${jwt}` } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(Date.parse(res.body.expiresAt)).to.be.at.most(exp * 1000);
    const c = sessionCookie(res.headers);
    expect(Date.parse(String(c.attrs.expires))).to.be.at.most(exp * 1000);
    const [, payload] = c.value.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')).exp).to.be.at.most(exp);
    expect((await t.request('GET', `/title/${id}`, withCookie(c.value))).status).to.equal(200);
  });

  it('logout ends the session on the server: a kept copy of the cookie is refused afterwards (even while cached)', async () => {
    const res = await t.request('POST', '/auth/login');
    const cookie = sessionCookie(res.headers).value;
    expect((await t.request('GET', `/title/${id}`, withCookie(cookie))).status).to.equal(200);
    expect((await t.request('POST', '/auth/logout', withCookie(cookie))).status).to.equal(200);
    expectError(await t.request('GET', `/title/${id}`, withCookie(cookie)), 403);
    expectError(await t.request('GET', '/title', withCookie(cookie)), 403);
  });

  it('a session ended in the shared database (by a logout on another daemon) is refused', async () => {
    const res = await t.request('POST', '/auth/login');
    const cookie = sessionCookie(res.headers).value;
    // what another daemon's logout does: the row is ended in the shared database
    await t.engine.db.exec('UPDATE sessions SET "revokedAt" = ? WHERE "revokedAt" IS NULL', [Date.now()]);
    expectError(await t.request('GET', `/title/${id}`, withCookie(cookie)), 403);
  });

  it('Authorization: Session <token> is not a scheme: 403', async () => {
    const res = await t.request('POST', '/auth/login');
    const cookie = sessionCookie(res.headers).value;
    expectError(
      await t.request('GET', `/title/${id}`, { key: null, headers: { authorization: `Session ${cookie}` } }),
      403,
      { match: /scheme/ },
    );
  });
});
