import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { CLI, runCli } from '../helpers/cli.js';
import { VALID_VIN, eventually, startTestEngine } from '../helpers/engine.js';

const run = runCli;

describe('CLI beside a running daemon', function () {
  this.timeout(180_000);

  it("prints presigned links with the daemon's URL and checks webhook URLs against the daemon's allow list", async () => {
    const t = await startTestEngine({ config: { allowHosts: ['127.0.0.1'], log: { level: 'warn' } } });
    try {
      const port = new URL(t.url).port;
      expect(existsSync(join(t.dataDir, 'daemon.json'))).to.equal(true);
      const created = await t.request('POST', '/title', {
        body: { sync_nmvtis: true, account_data: { vehicle: { vin: VALID_VIN, title: { issuing_state: 'TX' } } } },
      });
      await eventually(
        async () => (await t.request('GET', `/title/${created.body.entryId}`)).body.job_status === 'complete',
        { tries: 2000, what: 'job complete' },
      );
      const got = await run(['entries', 'get', '--org', t.org.name, '--entry', created.body.entryId], t.dataDir);
      expect(got.code, got.stderr).to.equal(0);
      const entry = JSON.parse(got.stdout);
      expect(entry.nmvtis_pull).to.match(new RegExp(`^http://localhost:${port}/files/`));
      const file = await fetch(entry.nmvtis_pull.replace('localhost', '127.0.0.1'));
      expect(file.status).to.equal(200);

      // the CLI has no allow list of its own here: the daemon's (127.0.0.1) applies
      const ok = await run(
        [
          'webhooks',
          'set',
          '--org',
          t.org.name,
          '--url',
          'http://127.0.0.1:9/hook',
          '--events',
          'title.job_status.complete',
          '--auth',
          'none',
        ],
        t.dataDir,
      );
      expect(ok.code, ok.stderr).to.equal(0);
      const refused = await run(
        [
          'webhooks',
          'set',
          '--org',
          t.org.name,
          '--url',
          'http://10.1.2.3/hook',
          '--events',
          'title.job_status.complete',
          '--auth',
          'none',
        ],
        t.dataDir,
      );
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.match(/webhook URL refused: 10\.1\.2\.3 is a [a-z -]+ address/);
      expect(refused.stderr).to.include('TITLED_ALLOW_HOSTS=10.1.2.3');
    } finally {
      await t.stop();
    }
    expect(existsSync(join(t.dataDir, 'daemon.json'))).to.equal(false);
  });

  it('`titled ... --json | head -1` ends quietly (no EPIPE trace)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'titled-epipe-'));
    const t = await startTestEngine({
      dataDir,
      listen: false,
      config: { workers: { enabled: false }, log: { level: 'warn' } },
    });
    try {
      for (let i = 0; i < 1500; i++)
        await t.engine.orgs.create(`epipe-org-${String(i).padStart(5, '0')}-with-a-long-name-to-fill-the-pipe`);
    } finally {
      await t.stop().catch(() => undefined);
    }
    const r = spawnSync(
      'bash',
      ['-c', `node '${CLI}' orgs list --json | head -1; echo "status=\${PIPESTATUS[0]}" >&2`],
      {
        env: { ...process.env, TITLED_DATA_DIR: dataDir },
        encoding: 'utf8',
      },
    );
    expect(r.stdout.split('\n').filter(Boolean)).to.have.length(1);
    expect(r.stderr).not.to.match(/EPIPE|Error|at /);
    expect(r.stderr).to.match(/status=0/);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
