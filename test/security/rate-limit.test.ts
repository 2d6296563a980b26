import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { DIALECTS, dropSchema, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { expectError } from '../http/support.js';

const limits = (o: Record<string, unknown>) => ({
  stages: ['intake'],
  workers: { enabled: false },
  rateLimit: { enabled: true, windowSeconds: 60, ...o },
});
const list = (t: TestEngine, key?: string) => t.request('GET', '/title', { key });

for (const dialect of DIALECTS) {
  describe(`security: rate limits (${dialect})`, function () {
    let t: TestEngine;
    before(async () => {
      t = await startTestEngine({ dialect, config: limits({ perCredential: 3, perOrganization: 5 }) });
    });
    after(async () => t?.stop());

    it('counts down RateLimit-Remaining per credential, then 429 with the error body and Retry-After', async () => {
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await list(t);
        expect(r.status).to.equal(200);
        expect(r.headers.get('ratelimit-limit')).to.equal('3');
        seen.push(r.headers.get('ratelimit-remaining')!);
        const reset = Number(r.headers.get('ratelimit-reset'));
        expect(reset).to.be.within(1, 60);
        expect(r.headers.get('ratelimit-policy')).to.equal(
          '3;w=60;comment="credential", 5;w=60;comment="organization"',
        );
      }
      expect(seen).to.deep.equal(['2', '1', '0']);
      const over = await list(t);
      expectError(over, 429, { match: /too many requests for this credential/ });
      expect(Number(over.headers.get('retry-after'))).to.be.within(1, 60);
      expect(over.headers.get('ratelimit-remaining')).to.equal('0');
    });

    it("the organization's limit spans its credentials; another organization is not affected", async () => {
      const org = (await t.engine.orgs.byName(t.org.name))!;
      const second = await t.engine.keys.create(org.id, {});
      // the organization has used 4 of 5 (3 allowed + 1 refused by the first key's limit)
      const a = await list(t, second.key);
      expect(a.status).to.equal(200);
      expect(a.headers.get('ratelimit-remaining')).to.equal('0');
      expect(a.headers.get('ratelimit-limit')).to.equal('5');
      expectError(await list(t, second.key), 429, { match: /organization/ });
      const other = await t.newOrg();
      const b = await list(t, other.key);
      expect(b.status).to.equal(200);
      expect(b.headers.get('ratelimit-remaining')).to.equal('2');
    });

    it('requests without credentials are not counted (they get their 403); /healthz has no limit headers', async () => {
      const anon = await t.request('GET', '/title', { key: null });
      expectError(anon, 403);
      expect(anon.headers.get('ratelimit-limit')).to.equal(null);
      const h = await t.request('GET', '/healthz', { key: null });
      expect(h.status).to.equal(200);
    });
  });
}

describe('security: rate limits shared by two daemons on one PostgreSQL database', function () {
  if (!DIALECTS.includes('postgres')) return;
  it('the postgres store counts requests to either daemon together', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    // daemons on one database share the master key that wraps the data keys (docs/security.md)
    const config = {
      ...limits({ perCredential: 4, perOrganization: 100, store: 'postgres' }),
      encryption: { masterKey: randomBytes(32).toString('base64') },
    };
    const a = await startTestEngine({ dialect: 'postgres', schema, config });
    const b = await startTestEngine({ dialect: 'postgres', schema, config });
    try {
      const key = a.org.key;
      const statuses: number[] = [];
      for (const t of [a, b, a, b, a]) statuses.push((await list(t, key)).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 429]);
    } finally {
      await b.stop();
      await a.stop();
      await dropSchema(schema);
    }
  });
});

describe('security: rate limits off', () => {
  it('rateLimit.enabled false: no headers and no 429', async () => {
    const t = await startTestEngine({
      config: { ...limits({ perCredential: 1 }), rateLimit: { enabled: false, perCredential: 1 } },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await list(t);
        expect(r.status).to.equal(200);
        expect(r.headers.get('ratelimit-limit')).to.equal(null);
      }
    } finally {
      await t.stop();
    }
  });
});
