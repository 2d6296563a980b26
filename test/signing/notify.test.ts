/**
 * Notifications: the link by email (local SMTP catcher) and by SMS (the http
 * provider against a local server), reminders on the organization's
 * schedule, and expiry, run by the plugin's background loop.
 */
import { expect } from 'chai';
import { eventually } from '../helpers/engine.js';
import { createEntry, waitForStatus } from '../http/support.js';
import { receiver, type Receiver } from '../webhook/support.js';
import { SmtpCatcher, startSigningEngine, txTwoOwners, type SigningTestEngine } from './support.js';
import { SandboxSms } from '../../plugins/signing/index.js';

describe('signing: email and SMS notifications, reminders and expiry (background loop)', function () {
  this.timeout(120_000);
  let t: SigningTestEngine;
  let smtp: SmtpCatcher;
  let sms: Receiver;

  before(async () => {
    smtp = await new SmtpCatcher().listen();
    sms = await receiver();
    t = await startSigningEngine({
      signing: {
        smtp: { host: '127.0.0.1', port: smtp.port },
        sms: { provider: 'http', url: `${sms.url}/sms`, token: 'sms-token' },
        reminders: { everyHours: 0.5 / 3600, max: 2 },
        expiryDays: 30,
        organizations: { 'quick-expiry': { expiryDays: 1.5 / 86_400, reminders: { max: 0 } } },
      },
    });
  });
  after(async () => {
    await t?.stop();
    await smtp?.close();
    await sms?.close();
  });

  it('sends each signer his link by email and SMS, then reminds him on schedule, at most `max` times', async () => {
    const id = await createEntry(t, txTwoOwners());
    await waitForStatus(t, id);
    const r = (await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`)).body;
    expect(r.status).to.equal('SENT');
    const jane = r.signers[0].transaction_access_url;
    // each notice goes by email, then by SMS: the third text may arrive just after the third mail
    const textsTo = () => sms.requests.filter((q) => q.body.to === '5125550100');
    await eventually(
      async () => smtp.mails.filter((m) => m.to === 'jane@example.com').length >= 3 && textsTo().length >= 3,
      { what: 'link + 2 reminders, by email and SMS', tries: 800 },
    );
    const janes = smtp.mails.filter((m) => m.to === 'jane@example.com');
    expect(janes[0]!.raw).to.contain('ready for your signature');
    expect(janes[1]!.raw).to.contain('Reminder');
    for (const m of janes) expect(m.link).to.equal(jane);
    const texts = textsTo();
    expect(texts.length).to.be.at.least(3);
    expect(texts[0]!.body.text).to.contain(jane);
    expect(texts[0]!.headers.authorization).to.equal('Bearer sms-token');
    await new Promise((res) => setTimeout(res, 1500));
    expect(smtp.mails.filter((m) => m.to === 'jane@example.com').length).to.equal(3);
    const events = await t.signing.service.store.events(r.id);
    expect(events.filter((e) => e.type === 'reminded').length).to.equal(4);
  });

  it("expires an organization's request after its own expiry; the link then shows it expired", async () => {
    const org = await t.newOrg('quick-expiry');
    const id = await createEntry(t, txTwoOwners(), org.key);
    await waitForStatus(t, id, 'complete', org.key);
    const r = (await t.request('POST', `/title/${id}/sign?Action=ACTIVATE`, { key: org.key })).body;
    expect(r.status).to.equal('SENT');
    await eventually(
      async () =>
        (await t.request('GET', `/title/${id}`, { key: org.key })).body.signature_requests[0].status === 'EXPIRED',
      { what: 'expired', tries: 800 },
    );
    const page = await fetch(r.signers[0].transaction_access_url);
    expect(page.status).to.equal(410);
    expect(await page.text()).to.contain('expired');
  });

  it('the sandbox SMS provider keeps what it sent', async () => {
    const s = new SandboxSms();
    await s.send('5125550100', 'hello');
    expect(s.sent.map((x) => [x.to, x.text])).to.deep.equal([['5125550100', 'hello']]);
  });
});
