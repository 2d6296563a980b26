/**
 * config/sandbox.json as a new user runs it: `titled serve --config
 * config/sandbox.json` (the compiled CLI, a child process, a fresh data
 * folder; merged over config/default.json). A MAIL submission gets a sandbox
 * label from the sandbox mail room to the filing office, the simulate route
 * delivers it (SUBMITTED), and a cancel before a scan voids the label.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../../core/paths.js';
import { CLI, childEnv, serveDaemon, type Daemon } from '../helpers/daemon.js';
import type { TestEngine } from '../helpers/engine.js';
import { sandboxTrackingNumber } from '../../plugins/title-collection/index.js';
import { textOfPdf } from '../title-collection/support.js';
import { readyEntry } from './support.js';

const SANDBOX = join(packageRoot, 'config', 'sandbox.json');

describe('submission: config/sandbox.json files by MAIL with a sandbox carrier label (titled serve)', function () {
  this.timeout(180_000);
  let dir: string;
  let daemon: Daemon | undefined;
  let key: string;
  let t: TestEngine;
  let cli: (args: string[]) => Promise<string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'titled-sandbox-'));
    const env = childEnv({ TITLED_DATA_DIR: dir });
    cli = (args: string[]) =>
      promisify(execFile)(process.execPath, [CLI, ...args, '--config', SANDBOX], { env }).then((r) => r.stdout);
    await cli(['orgs', 'create', 'sandbox-lender']);
    key = (await cli(['keys', 'create', '--org', 'sandbox-lender'])).trim().split('\n').at(-1)!;
    daemon = await serveDaemon(SANDBOX, env);
    const url = daemon.url;
    // the pieces of a TestEngine the entry helpers use: requests with the org's key
    t = {
      async request(method: string, path: string, o: { body?: unknown } = {}) {
        const res = await fetch(url + path, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
        });
        const text = await res.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        return { status: res.status, body, headers: res.headers };
      },
    } as unknown as TestEngine;
  });
  after(async () => {
    if (daemon && daemon.proc.exitCode === null) {
      daemon.proc.kill('SIGTERM');
      await daemon.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('a MAIL submission gets a sandbox label to the office; simulate delivers it; a cancel voids another', async () => {
    const e = await readyEntry(t, 'TX');
    const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { method: 'MAIL' } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const sid = r.body.submissionId as string;
    const s = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
    expect(s.shipment).to.include({
      provider: 'sandbox',
      mode: 'STUB',
      trackingNumber: sandboxTrackingNumber(sid),
      status: 'pre_transit',
    });
    const label = Buffer.from(await (await fetch(s.shipment.labelUrl)).arrayBuffer());
    const text = await textOfPdf(label);
    expect(text).to.include('Titled Sandbox Mail Room').and.include('Travis County Tax Office');
    expect(text).to.include('SANDBOX - NOT A REAL SHIPPING LABEL');

    const delivered = await t.request('POST', `/title/${e.entryId}/submit/${sid}/shipment/simulate`, {
      body: { event: 'delivered' },
    });
    expect(delivered.status, JSON.stringify(delivered.body)).to.equal(200);
    expect(delivered.body.submission.status).to.equal('SUBMITTED');

    const other = await readyEntry(t, 'CA');
    const sid2 = (await t.request('POST', `/title/${other.entryId}/submit`, { body: { method: 'MAIL' } })).body
      .submissionId as string;
    const canceled = await t.request('POST', `/title/${other.entryId}/submit/${sid2}/cancel`, { body: {} });
    expect(canceled.body.status).to.equal('CANCELED');
    expect(canceled.body.shipment.status).to.equal('voided');
  });

  it("an operator's CLI picks ONLINE_PORTAL for a managed filing: the daemon's fake portal counts as configured", async () => {
    const e = await readyEntry(t, 'TX');
    const r = await t.request('POST', `/title/${e.entryId}/submit`, { body: { intakeMode: 'MANAGED' } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const sid = r.body.submissionId as string;
    expect(JSON.parse(await cli(['submissions', 'method', sid, 'ONLINE_PORTAL'])).method).to.equal('ONLINE_PORTAL');
    expect(JSON.parse(await cli(['submissions', 'ready', sid])).status).to.equal('PENDING');
    // the daemon's worker files it with the fake portal it started
    for (let i = 0; i < 400; i++) {
      const s = (await t.request('GET', `/title/${e.entryId}/submit/${sid}`)).body;
      if (s.applicationNumber) return expect(s.applicationNumber).to.match(/^APP-\d{6}$/);
      await new Promise((ok) => setTimeout(ok, 50));
    }
    throw new Error('the managed filing was not filed with the fake portal');
  });
});
