import { expect } from 'chai';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { Metrics } from '../../core/metrics.js';

type Described = { name: string; help: string; type: string };
const describeAll = async (r: Registry): Promise<Described[]> =>
  (await r.getMetricsAsJSON()).map((m) => ({ name: m.name, help: m.help, type: String(m.type) }));

describe('metrics: the default process metrics', () => {
  it("are prom-client's collectDefaultMetrics, in its order, with its types and help", async () => {
    const reference = new Registry();
    collectDefaultMetrics({ register: reference, prefix: 'titled_' });
    const expected = await describeAll(reference);
    const ours = await describeAll(new Metrics().registry);
    const names = new Set(expected.map((m) => m.name));
    expect(expected.length).to.be.greaterThan(20);
    expect(ours.filter((m) => names.has(m.name))).to.deep.equal(expected);
    // nothing else named as prom-client's are (titled_process_*, titled_nodejs_*)
    expect(ours.filter((m) => /^titled_(process|nodejs)_/.test(m.name) && !names.has(m.name))).to.deep.equal([]);
  });

  it('count CPU time since they were registered: user + system = total, growing from one scrape to the next', async () => {
    const m = new Metrics();
    const cpu = async () => {
      const text = (await m.scrape()).body;
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)![1]);
      return {
        user: value('titled_process_cpu_user_seconds_total'),
        system: value('titled_process_cpu_system_seconds_total'),
        total: value('titled_process_cpu_seconds_total'),
      };
    };
    const first = await cpu();
    const until = Date.now() + 50;
    while (Date.now() < until); // some CPU time
    const second = await cpu();
    for (const c of [first, second]) expect(c.total).to.be.closeTo(c.user + c.system, 1e-9);
    expect(second.total).to.be.greaterThan(first.total);
    expect(second.user).to.be.at.least(first.user);
  });
});
