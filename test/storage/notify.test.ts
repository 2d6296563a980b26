/**
 * PostgreSQL LISTEN/NOTIFY between daemons (issue 13): with B's poll
 * intervals set to one hour, only a notification can make B act within the
 * test. A (workers off) creates an entry: B runs its job. A changes an
 * entry's account status: B's webhook dispatcher turns that outbox event into
 * a delivery.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { DIALECTS, dropSchema, eventually, startTestEngine, type TestEngine } from '../helpers/engine.js';
import { accountData, createEntry, makeVin } from '../http/support.js';
import { receiver, startWebhookEngine, type Receiver, type WebhookTestEngine } from '../webhook/support.js';

const HOUR = 3_600_000;

/** PostgreSQL only: the daemons share one database. */
const describePg = DIALECTS.includes('postgres') ? describe : describe.skip;

describePg('PostgreSQL LISTEN/NOTIFY wakes other daemons (two daemons, one schema)', function () {
  this.timeout(120_000);
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const masterKey = randomBytes(32).toString('base64');
  let a: TestEngine;
  let b: WebhookTestEngine;
  let hook: Receiver;
  const heard: string[] = [];

  before(async () => {
    // B first: it migrates the webhook plugin's tables, which A (without the plugin) shares
    b = await startWebhookEngine({
      dialect: 'postgres',
      schema,
      webhook: { pollIntervalMs: HOUR },
      config: { workers: { pollIntervalMs: HOUR, retryBaseMs: 20 }, log: { level: 'warn' }, encryption: { masterKey } },
    });
    b.engine.db.notifications.events.on('notification', (topic: string) => heard.push(topic));
    a = await startTestEngine({
      dialect: 'postgres',
      schema,
      config: { stages: ['intake'], workers: { enabled: false }, log: { level: 'warn' }, encryption: { masterKey } },
    });
    hook = await receiver();
    await b.wh.setProfile(b.org.name, {
      url: `${hook.url}/hook`,
      events: ['title.job_status.complete', 'title.account_status.*'],
      auth: { scheme: 'none' },
    });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await hook?.close();
    await dropSchema(schema);
  });

  it('a job enqueued through A (its workers off) is claimed and run by B, woken by a notification', async () => {
    expect(b.engine.db.notifications.enabled).to.equal(true);
    const id = await createEntry(a, { account_data: accountData(makeVin()) }, b.org.key);
    const done = await eventually(
      async () => {
        const g = await a.request('GET', `/title/${id}`, { key: b.org.key });
        return g.body.job_status === 'complete' ? g.body : null;
      },
      { tries: 2000, what: 'B completes the job A enqueued' },
    );
    expect(done.job_status).to.equal('complete');
    expect(heard).to.include('jobs');
    // B ran the job: its own dispatcher delivered the complete event (woken in process)
    await eventually(
      async () => hook.forEntry(id).some((r) => r.body.webhook_events?.includes('title.job_status.complete')),
      { tries: 2000, what: 'complete delivered' },
    );
  });

  it("an outbox event committed by A wakes B's webhook dispatcher, which delivers it", async () => {
    const id = await createEntry(a, { account_data: accountData(makeVin()) }, b.org.key);
    await eventually(async () => hook.forEntry(id).length > 0, { tries: 2000, what: 'complete delivered' });
    const before = heard.filter((t) => t === 'outbox').length;
    const pa = await a.engine.principalFor(b.org.name);
    await a.engine.service.setAccountStatus(pa, id, 'poa_sent');
    const got = await eventually(
      async () => hook.forEntry(id).find((r) => r.body.webhook_events?.includes('title.account_status.poa_sent')),
      { tries: 2000, what: 'account status delivered by B' },
    );
    expect(got.body.account_status).to.equal('poa_sent');
    expect(heard.filter((t) => t === 'outbox').length).to.be.greaterThan(before);
  });

  it("the notifications B sends itself are not taken for another daemon's", async () => {
    const n = heard.length;
    const id = await createEntry(b, { account_data: accountData(makeVin()) });
    await eventually(
      async () => hook.forEntry(id).some((r) => r.body.webhook_events?.includes('title.job_status.complete')),
      { tries: 2000, what: 'complete delivered' },
    );
    expect(heard.slice(n)).to.deep.equal([]);
  });
});
