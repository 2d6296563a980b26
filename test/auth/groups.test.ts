import { expect } from 'chai';
import { startTestEngine, type TestEngine, type TestOrg } from '../helpers/engine.js';
import { accountData, createEntry, expectError, makeVin, storedRow, waitForIdle, CORE_ONLY } from '../http/support.js';

describe('auth: groups (a key restricted to g1)', () => {
  let t: TestEngine;
  let g1Key: TestOrg;
  let inG1: string;
  let inG2: string;
  let noGroup: string;
  const vins = { g1: makeVin(), g2: makeVin(), none: makeVin() };

  before(async () => {
    t = await startTestEngine({ config: CORE_ONLY });
    g1Key = await t.newOrg(t.org.name, ['g1']);
    inG1 = await createEntry(t, { account_data: accountData(vins.g1, { state: 'TX' }), groupId: 'g1' });
    inG2 = await createEntry(t, { account_data: accountData(vins.g2, { state: 'CA' }), groupId: 'g2' });
    noGroup = await createEntry(t, { account_data: accountData(vins.none, { state: 'NY' }) });
    await waitForIdle(t);
  });
  after(async () => {
    await t?.stop();
  });

  const as = (o: { body?: unknown } = {}) => ({ ...o, key: g1Key.key });

  it('sees entries of g1 and entries with no group', async () => {
    for (const id of [inG1, noGroup]) {
      const res = await t.request('GET', `/title/${id}`, as());
      expect(res.status).to.equal(200);
      expect(res.body.entryId).to.equal(id);
    }
  });

  it('never sees an entry of g2: GET is 404 as if absent', async () => {
    expectError(await t.request('GET', `/title/${inG2}`, as()), 404);
  });

  it('lists only g1 and group-less entries; a groupId=g2 filter finds nothing', async () => {
    const all = await t.request('GET', '/title?limit=500', as());
    expect(all.status).to.equal(200);
    expect(all.body.items.map((e: { entryId: string }) => e.entryId).sort()).to.deep.equal([inG1, noGroup].sort());
    expect(all.body.count).to.equal(2);
    const g2 = await t.request('GET', '/title?groupId=g2', as());
    expect(g2.status).to.equal(200);
    expect(g2.body).to.deep.equal({ items: [], count: 0, nextToken: null, hasMore: false });
    const byVin = await t.request('GET', `/title?vin=${vins.g2}`, as());
    expect(byVin.body.items).to.deep.equal([]);
  });

  it('stateMap counts only the entries the key may see', async () => {
    const res = await t.request('GET', '/title?stateMap=true', as());
    expect(res.status).to.equal(200);
    expect(res.body.stateMap).to.deep.equal({ NY: 1, TX: 1 });
    expect(res.body.count).to.equal(2);
    // the unrestricted key sees all three
    const admin = await t.request('GET', '/title?stateMap=true');
    expect(admin.body.stateMap).to.deep.equal({ CA: 1, NY: 1, TX: 1 });
  });

  it('cannot PATCH, DELETE or act on an entry of g2 (404; /data 400 per spec), and the entry is unchanged', async () => {
    const before = await storedRow(t, inG2);
    expectError(
      await t.request('PATCH', `/title/${inG2}`, as({ body: { account_data: { vehicle: { color: 'Red' } } } })),
      404,
    );
    expectError(await t.request('DELETE', `/title/${inG2}`, as()), 404);
    expectError(await t.request('POST', `/title/${inG2}/data`, as({ body: { sync_nmvtis: true } })), 400);
    for (const action of ['fees', 'forms', 'sign', 'submit'])
      expectError(await t.request('POST', `/title/${inG2}/${action}`, as()), 404);
    expectError(await t.request('GET', `/title/${inG2}/submit/s1`, as()), 404);
    const after = await storedRow(t, inG2);
    expect(after.doc).to.equal(before.doc);
    expect(after.version).to.equal(before.version);
  });

  it('creating with groupId g2 is 403 and creates nothing', async () => {
    const vin = makeVin();
    expectError(
      await t.request('POST', '/title', as({ body: { account_data: accountData(vin), groupId: 'g2' } })),
      403,
    );
    const rows = await t.engine.db.query('SELECT id FROM entries WHERE vin = ?', [vin]);
    expect(rows).to.deep.equal([]);
  });

  it('creating without groupId puts the entry in g1; creating with groupId g1 is allowed', async () => {
    const a = await createEntry(t, { account_data: accountData(makeVin()) }, g1Key.key);
    expect((await t.request('GET', `/title/${a}`, as())).body.groupId).to.equal('g1');
    const b = await createEntry(t, { account_data: accountData(makeVin()), groupId: 'g1' }, g1Key.key);
    expect((await t.request('GET', `/title/${b}`, as())).body.groupId).to.equal('g1');
  });

  it('creating the VIN of a g2 entry is refused (409) and leaves that entry unchanged', async () => {
    const before = await storedRow(t, inG2);
    expectError(
      await t.request('POST', '/title', as({ body: { account_data: accountData(vins.g2, { borrower: 'Mallory' }) } })),
      409,
    );
    const after = await storedRow(t, inG2);
    expect(after.doc).to.equal(before.doc);
    const pointers = await t.engine.db.query('SELECT id FROM duplicate_pointers WHERE "canonicalId" = ?', [inG2]);
    expect(pointers).to.deep.equal([]);
  });

  it('can PATCH and DELETE its own and group-less entries', async () => {
    const patched = await t.request(
      'PATCH',
      `/title/${noGroup}`,
      as({ body: { account_data: { vehicle: { color: 'Green' } } } }),
    );
    expect(patched.status).to.equal(200);
    expect(patched.body.account_data.vehicle.color).to.equal('Green');
    const del = await t.request('DELETE', `/title/${inG1}`, as());
    expect(del.status).to.equal(200);
    expect(Object.keys(del.body).sort()).to.deep.equal(['deletedCount', 'entryId', 'message', 'statusCode']);
    expect(del.body.message).to.be.a('string');
    expect(del.body).to.include({ statusCode: 200, entryId: inG1, deletedCount: 1 });
  });

  it('a session cookie of the g1 key keeps the restriction', async () => {
    const login = await t.request('POST', '/auth/login', as());
    expect(login.status).to.equal(200);
    const line = login.headers.getSetCookie().find((c) => c.startsWith('titled_session='))!;
    const cookie = line.split(';')[0]!;
    const opts = { key: null, headers: { cookie } };
    expectError(await t.request('GET', `/title/${inG2}`, opts), 404);
    expect((await t.request('GET', `/title/${noGroup}`, opts)).status).to.equal(200);
    const list = await t.request('GET', '/title?limit=500', opts);
    expect(list.body.items.map((e: { entryId: string }) => e.entryId)).to.not.include(inG2);
    expectError(
      await t.request('POST', '/title', { ...opts, body: { account_data: accountData(makeVin()), groupId: 'g2' } }),
      403,
    );
  });
});
