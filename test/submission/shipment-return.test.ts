/**
 * A MAIL packet that comes back (`return_to_sender`) or that the carrier
 * fails to deliver (`failure`), through the HTTP API and the CLI, on both
 * databases: the submission stays PENDING (an operator decides), its history
 * gets a note by `carrier:<provider>` naming the event and the office, the
 * Submission shows `needsAttention` (not `feedbackMessage`, the state's
 * message), and the operator list filters on it (`GET /submissions?attention=true`,
 * `titled submissions list --attention`) until an operator moves the submission.
 */
import { expect } from 'chai';
import { DIALECTS } from '../helpers/engine.js';
import { sandboxTrackingNumber } from '../../plugins/title-collection/index.js';
import { accountEvents, readyEntry, type SubTestEngine, startCarrierCliEngine, startCarrierEngine } from './support.js';

const TRAVIS = 'Travis County Tax Office, PO Box 149328, Austin, TX 78714-9328';

async function submitMail(t: SubTestEngine, state = 'TX'): Promise<{ entryId: string; sid: string }> {
  const e = await readyEntry(t, state);
  const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
  expect(r.status, JSON.stringify(r.body)).to.equal(200);
  return { entryId: e.entryId, sid: r.body.submissionId as string };
}

for (const dialect of DIALECTS) {
  describe(`submission: a MAIL packet that comes back (${dialect})`, function () {
    this.timeout(180_000);
    let t: SubTestEngine;
    const simulate = async (x: { entryId: string; sid: string }, event: string, expected = true) => {
      const r = await t.request('POST', `/title/${x.entryId}/submit/${x.sid}/shipment/simulate`, { body: { event } });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.applied).to.equal(expected);
      return r.body.submission;
    };
    const listed = async (query: string): Promise<string[]> => {
      const r = await t.request('GET', `/submissions?${query}`, { key: t.opKey });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return r.body.submissions.map((s: any) => s.submissionId as string);
    };

    before(async () => {
      t = await startCarrierEngine(dialect);
    });
    after(async () => t?.stop());

    it('return_to_sender: PENDING, a history note naming the event and the office, needsAttention, the attention list', async () => {
      const a = await submitMail(t);
      await simulate(a, 'in_transit');
      const s = await simulate(a, 'return_to_sender');
      expect(s.status).to.equal('PENDING');
      expect(s.shipment.status).to.equal('return_to_sender');
      expect(s.needsAttention).to.equal(true);
      expect(s).not.to.have.property('feedbackMessage');
      const note = s.history.at(-1);
      expect(note).to.include({ from: 'PENDING', to: 'PENDING', by: 'carrier:sandbox' });
      expect(note.note).to.include('return_to_sender').and.include(TRAVIS).and.include(sandboxTrackingNumber(a.sid));
      expect(
        t.logs.filter((l) => l.includes('"code":"SUBMISSION_SHIPMENT_UNDELIVERED"') && l.includes(a.sid)),
      ).to.have.length(1);
      expect(await accountEvents(t, a.entryId)).to.deep.equal([]);

      // the same event again, and a late scan: nothing more
      expect((await simulate(a, 'in_transit')).shipment.status).to.equal('return_to_sender');
      const again = (await t.request('GET', `/title/${a.entryId}/submit/${a.sid}`)).body;
      expect(again.history).to.have.length(2);
      expect((await t.request('GET', `/submissions/${a.sid}`, { key: t.opKey })).body.needsAttention).to.equal(true);

      const b = await submitMail(t, 'CA');
      const f = await simulate(b, 'failure');
      expect(f.status).to.equal('PENDING');
      expect(f.needsAttention).to.equal(true);
      expect(f.history.at(-1).note).to.include('failure').and.include('Department of Motor Vehicles');
      const c = await submitMail(t);
      const plain = (await t.request('GET', `/title/${c.entryId}/submit/${c.sid}`)).body;
      expect(plain).not.to.have.property('needsAttention');

      const flagged = await listed('attention=true');
      expect(flagged).to.include(a.sid).and.include(b.sid).and.not.include(c.sid);
      const others = await listed('attention=false');
      expect(others).to.include(c.sid).and.not.include(a.sid).and.not.include(b.sid);
      expect(await listed(`attention=true&entryId=${a.entryId}`)).to.deep.equal([a.sid]);
      const bad = await t.request('GET', '/submissions?attention=yes', { key: t.opKey });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.include('attention');

      // an operator decides: A was mailed again by hand (SUBMITTED), B is canceled; neither needs attention then
      const rec = await t.request('POST', `/submissions/${a.sid}/record`, {
        body: { status: 'SUBMITTED', note: 'mailed again, certified' },
        key: t.opKey,
      });
      expect(rec.body.status).to.equal('SUBMITTED');
      expect(rec.body).not.to.have.property('needsAttention');
      const cancel = await t.request('POST', `/submissions/${b.sid}/cancel`, { key: t.opKey });
      expect(cancel.body.status).to.equal('CANCELED');
      expect(cancel.body.shipment.status).to.equal('failure'); // nothing to void: the carrier has it
      expect(cancel.body).not.to.have.property('needsAttention');
      const now = await listed('attention=true');
      expect(now).not.to.include(a.sid).and.not.include(b.sid);
    });

    it('a packet that comes back after the submission moved adds the note without asking for attention', async () => {
      const x = await submitMail(t);
      await simulate(x, 'in_transit');
      const canceled = await t.request('POST', `/title/${x.entryId}/submit/${x.sid}/cancel`, { body: {} });
      expect(canceled.body.shipment.status).to.equal('in_transit');
      const s = await simulate(x, 'return_to_sender');
      expect(s.status).to.equal('CANCELED');
      expect(s.history.at(-1)).to.include({ from: 'CANCELED', to: 'CANCELED', by: 'carrier:sandbox' });
      expect(s).not.to.have.property('needsAttention');
    });
  });
}

describe('submission: titled submissions list --attention (CLI, sqlite)', function () {
  this.timeout(180_000);

  it('lists the submissions whose packet came back, with the reason in the ATTENTION column', async () => {
    const { t, submissions } = await startCarrierCliEngine();
    try {
      const run = async (args: string[]) => (await submissions(args)).stdout;
      const back = await submitMail(t);
      const fine = await submitMail(t);
      expect(JSON.parse((await run(['simulate', back.sid, 'return_to_sender'])).trim().split('\n').at(-1)!)).to.include(
        {
          applied: true,
        },
      );
      const table = await run(['list', '--attention']);
      expect(table.split('\n')[0]).to.match(/CREATED\s+ATTENTION$/);
      expect(table).to.match(
        new RegExp(`${back.sid}\\s+${back.entryId}\\s+PENDING\\s+MAIL\\s.*packet return_to_sender`),
      );
      expect(table).not.to.include(fine.sid);
      const all = await run(['list', '--json']);
      const rows = all
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(rows.find((r) => r.submissionId === back.sid).needsAttention).to.equal(true);
      expect(rows.find((r) => r.submissionId === fine.sid)).not.to.have.property('needsAttention');
      expect(await run(['list'])).to.match(new RegExp(`${fine.sid}\\s.*\\s-$`, 'm'));
    } finally {
      await t.stop();
    }
  });
});
