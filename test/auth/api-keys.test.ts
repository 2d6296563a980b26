import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import {
  accountData,
  basic,
  createEntry,
  expectError,
  makeVin,
  storedRow,
  waitForStatus,
  CORE_ONLY,
} from '../http/support.js';
import { titleRoutes } from './routes.js';

describe('auth: API keys (Bearer and Basic)', () => {
  let t: TestEngine;
  let id: string;
  let vin: string;
  let keyId: string;
  let secret: string;

  before(async () => {
    t = await startTestEngine({ config: { ...CORE_ONLY, auth: { keyCacheMs: 0 } } });
    keyId = t.org.keyId;
    secret = t.org.key.slice(t.org.key.indexOf('.') + 1);
    vin = makeVin();
    id = await createEntry(t, { account_data: accountData(vin) });
    await waitForStatus(t, id);
  });
  after(async () => {
    await t?.stop();
  });

  it('accepts Authorization: Bearer <API key> and records the key id as userId', async () => {
    const res = await t.request('GET', `/title/${id}`);
    expect(res.status).to.equal(200);
    expect(res.body.entryId).to.equal(id);
    expect(res.body.userId).to.equal(keyId);
    expect(res.body.website).to.equal(t.org.name);
  });

  it('accepts Authorization: Basic base64(<key id>:<secret>)', async () => {
    const auth = basic(keyId, secret);
    const got = await t.request('GET', `/title/${id}`, { key: null, headers: { authorization: auth } });
    expect(got.status).to.equal(200);
    expect(got.body.entryId).to.equal(id);
    const created = await t.request('POST', '/title', {
      key: null,
      headers: { authorization: auth },
      body: { account_data: accountData(makeVin()) },
    });
    expect(created.status).to.equal(200);
    const entry = await t.request('GET', `/title/${created.body.entryId}`, {
      key: null,
      headers: { authorization: auth },
    });
    expect(entry.status).to.equal(200);
    expect(entry.body.userId).to.equal(keyId);
    expect(entry.body.website).to.equal(t.org.name);
  });

  it('accepts the scheme name in any case (RFC 9110: case-insensitive)', async () => {
    const res = await t.request('GET', `/title/${id}`, {
      key: null,
      headers: { authorization: `bearer ${t.org.key}` },
    });
    expect(res.status).to.equal(200);
  });

  describe('refused with 403 and the spec error body on every title route', () => {
    let revokedKey: string;
    let revokedBasic: string;
    let snapshot: { doc: string; version: number };
    let entryCount: number;

    const otherSecret = () => randomBytes(32).toString('base64url');
    const cases: [string, () => string | null][] = [
      ['wrong secret (Bearer)', () => `Bearer ${keyId}.${otherSecret()}`],
      ['wrong secret (Basic)', () => basic(keyId, otherSecret())],
      ['the key with one character more (Bearer)', () => `Bearer ${t.org.key}x`],
      ['unknown key id (Bearer)', () => `Bearer tk_0123456789abcdef.${secret}`],
      ['unknown key id (Basic)', () => basic('tk_0123456789abcdef', secret)],
      ['a key id that is not key-shaped (Basic)', () => basic('admin', secret)],
      ['revoked key (Bearer)', () => `Bearer ${revokedKey}`],
      ['revoked key (Basic)', () => revokedBasic],
      ['malformed: "Bearer" alone', () => 'Bearer'],
      ['malformed: Bearer with a token that is neither key nor JWT', () => 'Bearer not-a-key'],
      ['malformed: Bearer with a JWT-shaped token while JWT is not configured', () => 'Bearer a.b.c'],
      ['malformed: "Basic" alone', () => 'Basic'],
      ['malformed: Basic that is not base64', () => 'Basic %%%***'],
      ['malformed: Basic without a colon', () => `Basic ${Buffer.from(`${keyId}${secret}`).toString('base64')}`],
      ['malformed: Basic of the whole key', () => `Basic ${Buffer.from(t.org.key).toString('base64')}`],
      ['unsupported scheme: Digest', () => `Digest username="${keyId}", response="${secret}"`],
      ['unsupported scheme: Token', () => `Token ${t.org.key}`],
      ['no scheme: the bare key', () => t.org.key],
      ['no credentials', () => null],
    ];

    before(async () => {
      const org = (await t.engine.orgs.byName(t.org.name))!;
      const k = await t.engine.keys.create(org.id);
      revokedKey = k.key;
      revokedBasic = basic(k.id, k.key.slice(k.key.indexOf('.') + 1));
      // the key works before it is revoked (so the refusal below is the revocation's doing)
      expect((await t.request('GET', `/title/${id}`, { key: revokedKey })).status).to.equal(200);
      expect(
        (await t.request('GET', `/title/${id}`, { key: null, headers: { authorization: revokedBasic } })).status,
      ).to.equal(200);
      await t.engine.keys.revoke(k.id);
      snapshot = await storedRow(t, id);
      entryCount = Number((await t.engine.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM entries'))[0]!.n);
    });

    for (const [name, header] of cases) {
      it(name, async () => {
        const h = header();
        for (const route of titleRoutes(id, makeVin())) {
          const res = await t.request(route.method, route.path, {
            key: null,
            body: route.body,
            headers: h === null ? {} : { authorization: h },
          });
          try {
            expectError(res, 403);
          } catch (e) {
            (e as Error).message = `${route.method} ${route.path}: ${(e as Error).message}`;
            throw e;
          }
        }
      });
    }

    it('left the entry and the entry count unchanged', async () => {
      const after = await storedRow(t, id);
      expect(after.doc).to.equal(snapshot.doc);
      expect(after.version).to.equal(snapshot.version);
      const n = Number((await t.engine.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM entries'))[0]!.n);
      expect(n).to.equal(entryCount);
    });
  });
});
