import { expect } from 'chai';
import { DIALECTS, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';

/** Creates `n` entries (one queued job each) for organization `org`, in order. */
async function backlog(t: TestEngine, org: string, n: number, from: number): Promise<string> {
  const p = await t.engine.principalFor(org);
  for (let i = 0; i < n; i++)
    await t.engine.service.create(p, { account_data: { vehicle: { vin: vinFor(from + i) } } });
  return p.org.id;
}

for (const dialect of DIALECTS) {
  describe(`job queue: fair claims across organizations (issue 13, item 6) (${dialect})`, () => {
    let t: TestEngine;
    let a: string;
    let b: string;

    beforeEach(async () => {
      t = await startTestEngine({ dialect, listen: false, config: { workers: { enabled: false, concurrency: 4 } } });
      const other = await t.newOrg();
      a = await backlog(t, t.org.name, 8, 100);
      b = await backlog(t, other.name, 2, 200);
    });
    afterEach(async () => {
      await t?.stop();
    });

    it('one claim takes turns between organizations: a large older backlog does not take every worker', async () => {
      const got = await t.engine.queue.claim('daemon-1', 4, 60_000);
      const byOrg = (org: string) => got.filter((j) => j.orgId === org).length;
      expect(got).to.have.length(4);
      expect(byOrg(b), 'jobs of the organization that enqueued later').to.equal(2);
      expect(byOrg(a)).to.equal(2);
    });

    it('a freed worker goes to the waiting organization while the busy one holds its share', async () => {
      const first = await t.engine.queue.claim('daemon-1', 2, 60_000);
      expect(first.map((j) => j.orgId)).to.have.members([a, b]);
      const second = await t.engine.queue.claim('daemon-1', 1, 60_000);
      expect(second.map((j) => j.orgId)).to.deep.equal([a]);
      // a holds 2 (its share of 4 workers), b holds 1: the next worker goes to b, although a's waiting jobs are older
      const third = await t.engine.queue.claim('daemon-1', 1, 60_000);
      expect(third.map((j) => j.orgId)).to.deep.equal([b]);
    });

    it('a backlog longer than a claim looks ahead (ranked by the window query) takes the same turns', async () => {
      // 24 jobs of a and 2 of b: more than the 4n+16 = 20 runnable jobs a claim of one lists by age
      await backlog(t, t.org.name, 16, 300);
      const claims: string[] = [];
      for (let i = 0; i < 3; i++)
        claims.push(...(await t.engine.queue.claim('daemon-1', 1, 60_000)).map((j) => j.orgId));
      expect(claims).to.deep.equal([a, a, b]);
      const rest = await t.engine.queue.claim('daemon-1', 8, 60_000);
      expect(rest.map((j) => j.orgId).filter((o) => o === b)).to.deep.equal([b]);
    });

    it('no worker idles while work waits: with no other organization waiting, one organization takes every free worker', async () => {
      const got = await t.engine.queue.claim('daemon-1', 8, 60_000);
      expect(got).to.have.length(8);
      const more = await t.engine.queue.claim('daemon-1', 8, 60_000);
      expect(more.map((j) => j.orgId)).to.deep.equal([a, a]);
      expect(await t.engine.queue.claim('daemon-1', 8, 60_000)).to.deep.equal([]);
    });
  });
}
