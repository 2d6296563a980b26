import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountData, createEntry, expectError, makeVin, CORE_ONLY } from '../http/support.js';
import { titleRoutes } from './routes.js';

const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'titled-api';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const bearer = (token: string) => ({ key: null, headers: { authorization: `Bearer ${token}` } });

async function sign(
  key: CryptoKey | Uint8Array,
  claims: JWTPayload,
  o: { alg?: string; kid?: string; iss?: string; aud?: string; exp?: number | string } = {},
): Promise<string> {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: o.alg ?? 'RS256', ...(o.kid ? { kid: o.kid } : {}) })
    .setIssuedAt()
    .setIssuer(o.iss ?? ISSUER)
    .setAudience(o.aud ?? AUDIENCE)
    .setExpirationTime(o.exp ?? '10m');
  return jwt.sign(key);
}

for (const dialect of DIALECTS)
  describe(`auth: JWT (public key) (${dialect})`, () => {
    let t: TestEngine;
    let priv: CryptoKey;
    let publicPem: string;
    let otherPriv: CryptoKey;
    let id: string;

    before(async () => {
      const pair = await generateKeyPair('RS256');
      priv = pair.privateKey;
      publicPem = await exportSPKI(pair.publicKey);
      otherPriv = (await generateKeyPair('RS256')).privateKey;
      t = await startTestEngine({
        dialect,
        config: {
          ...CORE_ONLY,
          auth: { keyCacheMs: 0, jwt: { publicKey: publicPem, issuer: ISSUER, audience: AUDIENCE, orgClaim: 'org' } },
        },
      });
      id = await createEntry(t, { account_data: accountData(makeVin()) });
    });
    after(async () => {
      await t?.stop();
    });

    it('accepts a valid token; the entry it creates has userId = sub and user_email = email', async () => {
      const token = await sign(priv, { org: t.org.name, sub: 'user-42', email: 'u42@lender.example' });
      const created = await t.request('POST', '/title', {
        ...bearer(token),
        body: { account_data: accountData(makeVin()) },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const res = await t.request('GET', `/title/${created.body.entryId}`, bearer(token));
      expect(res.status).to.equal(200);
      expect(res.body.userId).to.equal('user-42');
      expect(res.body.user_email).to.equal('u42@lender.example');
      expect(res.body.website).to.equal(t.org.name);
      // and it sees the entries of its organization made with an API key
      expect((await t.request('GET', `/title/${id}`, bearer(token))).status).to.equal(200);
    });

    it('restricts a token with a groups claim to those groups', async () => {
      const g2 = await createEntry(t, { account_data: accountData(makeVin()), groupId: 'g2' });
      const token = await sign(priv, { org: t.org.name, sub: 'user-g1', groups: ['g1'] });
      expect((await t.request('GET', `/title/${g2}`, bearer(token))).status).to.equal(404);
      expect((await t.request('GET', `/title/${id}`, bearer(token))).status).to.equal(200);
    });

    it('a groups claim holding one group as a string restricts to that group (never fails open)', async () => {
      const g2 = await createEntry(t, { account_data: accountData(makeVin()), groupId: 'g2' });
      const token = await sign(priv, { org: t.org.name, sub: 'user-g1', groups: 'g1' });
      expectError(await t.request('GET', `/title/${g2}`, bearer(token)), 404);
      const list = await t.request('GET', '/title?groupId=g2', bearer(token));
      expect(list.body.items).to.deep.equal([]);
      expectError(
        await t.request('POST', '/title', {
          ...bearer(token),
          body: { account_data: accountData(makeVin()), groupId: 'g2' },
        }),
        403,
      );
    });

    it('a groups claim that is neither a group id nor an array of group ids is refused with 403', async () => {
      for (const groups of [{ g2: true }, true, [{}], ['g1', null]]) {
        const token = await sign(priv, { org: t.org.name, sub: 'user-odd', groups });
        expectError(await t.request('GET', '/title', bearer(token)), 403);
      }
    });

    it('a user id or group id up to 200 characters works, including a duplicate create (pointer records the user)', async () => {
      const token = await sign(priv, { org: t.org.name, sub: 's'.repeat(200), groups: ['g'.repeat(200)] });
      const vin = makeVin();
      for (let i = 0; i < 2; i++) {
        const res = await t.request('POST', '/title', { ...bearer(token), body: { account_data: accountData(vin) } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
    });

    it('a user id or group id the store cannot keep (over 200 characters, or a NUL) is refused with 403, never a 500', async () => {
      const vin = makeVin();
      for (const claims of [
        { sub: 's'.repeat(201) },
        { sub: 'u', groups: ['g'.repeat(201)] },
        { sub: 'u', groups: 'g'.repeat(201) },
        { sub: 'a\u0000b' },
        { sub: 'u', groups: ['g\u0000'] },
        { sub: 'u', org: `${t.org.name}\u0000` },
      ]) {
        const token = await sign(priv, { org: t.org.name, ...claims });
        for (let i = 0; i < 2; i++)
          expectError(
            await t.request('POST', '/title', { ...bearer(token), body: { account_data: accountData(vin) } }),
            403,
          );
      }
    });

    describe('refused with 403 on every title route', () => {
      const cases: [string, () => Promise<string>][] = [
        ['wrong issuer', () => sign(priv, { org: t.org.name, sub: 'u' }, { iss: 'https://evil.example.test/' })],
        ['wrong audience', () => sign(priv, { org: t.org.name, sub: 'u' }, { aud: 'someone-else' })],
        ['expired', () => sign(priv, { org: t.org.name, sub: 'u' }, { exp: Math.floor(Date.now() / 1000) - 3600 })],
        [
          'alg: none (unsecured)',
          async () =>
            `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ org: t.org.name, sub: 'u', iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })}.`,
        ],
        [
          'alg: none with a signature part',
          async () =>
            `${b64({ alg: 'none' })}.${b64({ org: t.org.name, sub: 'u', iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })}.c2ln`,
        ],
        ['signed by a different key', () => sign(otherPriv, { org: t.org.name, sub: 'u' })],
        [
          'HS256 signed with the public key text (algorithm confusion)',
          () => sign(new TextEncoder().encode(publicPem), { org: t.org.name, sub: 'u' }, { alg: 'HS256' }),
        ],
        ['unknown organization in the claim', () => sign(priv, { org: 'no-such-org', sub: 'u' })],
        ['no organization claim', () => sign(priv, { sub: 'u' })],
        [
          'a valid token with its payload changed',
          async () => {
            const [h, , s] = (await sign(priv, { org: t.org.name, sub: 'u' })).split('.');
            return `${h}.${b64({ org: t.org.name, sub: 'admin', iss: ISSUER, aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })}.${s}`;
          },
        ],
      ];
      for (const [name, make] of cases) {
        it(name, async () => {
          const token = await make();
          for (const route of titleRoutes(id, makeVin())) {
            const res = await t.request(route.method, route.path, { ...bearer(token), body: route.body });
            try {
              expectError(res, 403);
            } catch (e) {
              (e as Error).message = `${route.method} ${route.path}: ${(e as Error).message}`;
              throw e;
            }
          }
        });
      }
    });
  });

describe('auth: JWT (JWKS)', () => {
  let t: TestEngine;
  let jwks: Server;
  let priv: CryptoKey;
  let jwksHits = 0;
  let otherPriv: CryptoKey;

  before(async () => {
    const pair = await generateKeyPair('ES256');
    priv = pair.privateKey;
    otherPriv = (await generateKeyPair('ES256')).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    jwks = createServer((req, res) => {
      if (req.url === '/.well-known/jwks.json') {
        jwksHits++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ keys: [jwk] }));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', r));
    const port = (jwks.address() as { port: number }).port;
    t = await startTestEngine({
      config: {
        ...CORE_ONLY,
        auth: {
          jwt: {
            jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
            issuer: ISSUER,
            audience: AUDIENCE,
            orgClaim: 'org',
          },
        },
      },
    });
  });
  after(async () => {
    await t?.stop();
    await new Promise((r) => jwks?.close(r));
  });

  it('accepts a token signed by a key of the JWKS (fetched from the JWKS URL)', async () => {
    const token = await sign(priv, { org: t.org.name, sub: 'jwks-user' }, { alg: 'ES256', kid: 'k1' });
    const created = await t.request('POST', '/title', {
      ...bearer(token),
      body: { account_data: accountData(makeVin()) },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const res = await t.request('GET', `/title/${created.body.entryId}`, bearer(token));
    expect(res.status).to.equal(200);
    expect(res.body.userId).to.equal('jwks-user');
    expect(jwksHits).to.be.greaterThan(0);
  });

  it('refuses a token signed by a key not in the JWKS, and one with an unknown kid', async () => {
    const foreign = await sign(otherPriv, { org: t.org.name, sub: 'x' }, { alg: 'ES256', kid: 'k1' });
    expectError(await t.request('GET', '/title', bearer(foreign)), 403);
    const unknownKid = await sign(otherPriv, { org: t.org.name, sub: 'x' }, { alg: 'ES256', kid: 'k2' });
    expectError(await t.request('GET', '/title', bearer(unknownKid)), 403);
  });
});
