import { expect } from 'chai';
import { EntryStore } from '../../core/store/entry-store.js';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountData, createEntry, expectError, makeVin, waitForIdle, CORE_ONLY } from './support.js';

interface Made {
  id: string;
  vin: string;
  state: string;
  groupId?: string;
}

const STATES = ['TX', 'CA', 'NY', 'FL', 'TX', 'WA', 'TX', 'CA'];
const ids = (items: { entryId: string }[]) => items.map((e) => e.entryId);

for (const dialect of DIALECTS) {
  describe(`HTTP: GET /title (${dialect})`, () => {
    let t: TestEngine;
    const made: Made[] = [];

    before(async () => {
      t = await startTestEngine({ dialect, config: CORE_ONLY });
      // 25 entries, created five at a time so several share a createdAt millisecond
      for (let batch = 0; batch < 5; batch++) {
        await Promise.all(
          Array.from({ length: 5 }, async (_, j) => {
            const i = batch * 5 + j;
            const vin = makeVin();
            const state = STATES[i % STATES.length]!;
            const groupId = i % 3 === 0 ? 'g1' : i % 3 === 1 ? 'g2' : undefined;
            const id = await createEntry(t, {
              account_data: accountData(vin, { state }),
              ...(groupId ? { groupId } : {}),
            });
            made.push({ id, vin, state, groupId });
          }),
        );
      }
      // another organization's entries never appear
      const other = await t.newOrg();
      await createEntry(t, { account_data: accountData(makeVin(), { state: 'TX' }), groupId: 'g1' }, other.key);
      await waitForIdle(t);
    });
    after(async () => {
      await t?.stop();
    });

    async function list(query: string): Promise<any> {
      const res = await t.request('GET', `/title${query}`);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(Object.keys(res.body).sort(), query).to.deep.equal(['count', 'hasMore', 'items', 'nextToken']);
      expect(res.body.count, query).to.equal(res.body.items.length);
      return res.body;
    }

    it('lists every entry of the organization as full entries, newest first in a stable (createdAt, entryId) order', async () => {
      const all = await list('?limit=500');
      expect(all.hasMore).to.equal(false);
      expect(all.nextToken).to.equal(null);
      expect(ids(all.items).sort()).to.deep.equal(made.map((m) => m.id).sort());
      const order = [...all.items].sort(
        (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.entryId < b.entryId ? 1 : -1),
      );
      expect(ids(all.items)).to.deep.equal(ids(order));
      const one = await t.request('GET', `/title/${made[0]!.id}`);
      expect(all.items.find((e: { entryId: string }) => e.entryId === made[0]!.id)).to.deep.equal(one.body);
    });

    it('the default page holds 50 entries at most', async () => {
      const res = await list('');
      expect(res.count).to.equal(25);
      expect(res.hasMore).to.equal(false);
    });

    it('limit + nextToken walks every entry exactly once, in the same order as one big page', async () => {
      const whole = ids((await list('?limit=500')).items);
      const seen: string[] = [];
      const sizes: number[] = [];
      let token: string | null = null;
      for (let page = 0; page < 10; page++) {
        const body: any = await list(`?limit=7${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
        sizes.push(body.count);
        seen.push(...ids(body.items));
        expect(body.hasMore).to.equal(body.nextToken !== null);
        token = body.nextToken;
        if (!body.hasMore) break;
        expect(token).to.be.a('string');
      }
      expect(sizes).to.deep.equal([7, 7, 7, 4]);
      expect(seen).to.deep.equal(whole);
      expect(new Set(seen).size).to.equal(25);
    });

    it('paging works with a filter too (it walks only matching entries)', async () => {
      const want = made
        .filter((m) => m.state === 'TX')
        .map((m) => m.id)
        .sort();
      const got: string[] = [];
      let token: string | null = null;
      do {
        const body: any = await list(`?state=TX&limit=2${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`);
        got.push(...ids(body.items));
        token = body.nextToken;
      } while (token);
      expect(got.sort()).to.deep.equal(want);
    });

    it('filters: vin (normalized), groupId, state, and their combination', async () => {
      const m = made[4]!;
      expect(ids((await list(`?vin=${m.vin}`)).items)).to.deep.equal([m.id]);
      expect(ids((await list(`?vin=${m.vin.toLowerCase()}`)).items)).to.deep.equal([m.id]);
      expect((await list(`?vin=${makeVin()}`)).items).to.deep.equal([]);
      expect(ids((await list('?groupId=g1&limit=500')).items).sort()).to.deep.equal(
        made
          .filter((x) => x.groupId === 'g1')
          .map((x) => x.id)
          .sort(),
      );
      expect(ids((await list('?groupId=g2&limit=500')).items).sort()).to.deep.equal(
        made
          .filter((x) => x.groupId === 'g2')
          .map((x) => x.id)
          .sort(),
      );
      expect((await list('?groupId=g9')).items).to.deep.equal([]);
      expect(ids((await list('?state=TX&limit=500')).items).sort()).to.deep.equal(
        made
          .filter((x) => x.state === 'TX')
          .map((x) => x.id)
          .sort(),
      );
      expect(ids((await list('?state=ca&limit=500')).items).sort()).to.deep.equal(
        made
          .filter((x) => x.state === 'CA')
          .map((x) => x.id)
          .sort(),
      );
      expect(ids((await list('?state=TX&groupId=g1&limit=500')).items).sort()).to.deep.equal(
        made
          .filter((x) => x.state === 'TX' && x.groupId === 'g1')
          .map((x) => x.id)
          .sort(),
      );
      expect((await list('?state=TX&vin=' + made.find((x) => x.state === 'CA')!.vin)).items).to.deep.equal([]);
    });

    it('filters: job_status and account_status', async () => {
      expect((await list('?job_status=complete&limit=500')).count).to.equal(25);
      expect((await list('?job_status=pending')).items).to.deep.equal([]);
      expect((await list('?account_status=originated&limit=500')).count).to.equal(25);
      expect((await list('?account_status=poa_sent')).items).to.deep.equal([]);
      // account_status changes through the dashboard or signing flow; set it in the store
      const org = (await t.engine.orgs.byName(t.org.name))!;
      const store = t.engine.container.resolve(EntryStore);
      const target = made[7]!;
      await t.engine.db.tx(async (m) => {
        const found = (await store.load(org.id, target.id, m))!;
        found.entry.account_status = 'poa_sent';
        await store.save(m, org.id, found.entry);
      });
      expect(ids((await list('?account_status=poa_sent')).items)).to.deep.equal([target.id]);
      expect((await list('?account_status=originated&limit=500')).count).to.equal(24);
    });

    it('filters: job_status of entries in different states', async () => {
      const q = await startTestEngine({ dialect, config: { ...CORE_ONLY, workers: { enabled: false } } });
      try {
        const vin = makeVin();
        const a = await createEntry(q, { account_data: accountData(vin) });
        const b = await createEntry(q, { account_data: accountData(makeVin()) });
        await createEntry(q, { account_data: { vehicle: { vin } }, sync_nmvtis: true });
        const enriching = await q.request('GET', '/title?job_status=enriching');
        expect(ids(enriching.body.items)).to.deep.equal([a]);
        const pending = await q.request('GET', '/title?job_status=pending');
        expect(ids(pending.body.items)).to.deep.equal([b]);
      } finally {
        await q.stop();
      }
    });

    it('stateMap=true counts entries by state over the same filters', async () => {
      const counts: Record<string, number> = {};
      for (const m of made) counts[m.state] = (counts[m.state] ?? 0) + 1;
      const res = await t.request('GET', '/title?stateMap=true');
      expect(res.status).to.equal(200);
      const want = Object.keys(counts)
        .sort()
        .map((state) => ({ state, count: counts[state] }));
      expect(res.body).to.deep.equal({ items: want, count: 25, nextToken: null, hasMore: false, stateMap: counts });
      const g1: Record<string, number> = {};
      for (const m of made.filter((x) => x.groupId === 'g1')) g1[m.state] = (g1[m.state] ?? 0) + 1;
      const filtered = await t.request('GET', '/title?stateMap=true&groupId=g1');
      expect(filtered.body.stateMap).to.deep.equal(g1);
      expect(filtered.body.count).to.equal(made.filter((x) => x.groupId === 'g1').length);
      // stateMap=false is an ordinary list
      expect((await list('?stateMap=false&limit=500')).count).to.equal(25);
    });

    it('a bad limit is 400 naming limit', async () => {
      for (const v of ['0', '-1', '501', 'abc', '1.5', '']) {
        expectError(await t.request('GET', `/title?limit=${v}`), 400, { match: /limit/ });
      }
    });

    it('a nextToken the service did not issue is 400 naming nextToken', async () => {
      const first = await list('?limit=3');
      const real = first.nextToken as string;
      const b64 = (s: string) => Buffer.from(s).toString('base64url');
      const mid = Math.floor(real.length / 2);
      const forged = [
        'garbage!!',
        b64('not json'),
        b64('{"a":1}'),
        b64(JSON.stringify({ createdAt: Date.now() + 86_400_000, id: 'zzzzzzzz' })),
        b64(JSON.stringify({ createdAt: 'x', id: 1 })),
        real.slice(0, mid) + (real[mid] === 'A' ? 'B' : 'A') + real.slice(mid + 1),
        'A'.repeat(600),
      ];
      for (const token of forged) {
        expectError(await t.request('GET', `/title?limit=3&nextToken=${encodeURIComponent(token)}`), 400, {
          match: /nextToken/,
        });
      }
      // the real one still works, for its own organization only
      expect((await list(`?limit=3&nextToken=${encodeURIComponent(real)}`)).count).to.equal(3);
      const other = await t.newOrg();
      expectError(
        await t.request('GET', `/title?limit=3&nextToken=${encodeURIComponent(real)}`, { key: other.key }),
        400,
        { match: /nextToken/ },
      );
    });

    it('other bad query values are 400 naming the parameter', async () => {
      expectError(await t.request('GET', '/title?state=TEX'), 400, { match: /state/ });
      expectError(await t.request('GET', '/title?job_status=done'), 400, { match: /job_status/ });
      expectError(await t.request('GET', '/title?account_status=paid'), 400, { match: /account_status/ });
      expectError(await t.request('GET', '/title?stateMap=yes'), 400, { match: /stateMap/ });
      expectError(await t.request('GET', '/title?limit=5&limit=6'), 400, { match: /limit/ });
    });
  });
}
