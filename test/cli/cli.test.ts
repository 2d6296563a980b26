import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { launcherEnv } from '../../bench/lib/proc.js';
import { packageRoot } from '../../core/paths.js';

/** The compiled CLI next to this compiled test (dist/ or whichever outDir the tests were built into). */
const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
const SHIM = join(packageRoot, 'bin', 'titled');
const VIN = '1HGCM82633A004352';
const KEY_RE = /^tk_[0-9a-f]{16}\.[A-Za-z0-9_-]{20,100}$/;

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A clean environment: nothing from the caller's titled settings leaks into the child. */
function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('TITLED_') || k === 'PORT' || k === 'DATABASE_URL') delete env[k];
  return { ...env, TITLED_DATA_DIR: dataDir, ...extra };
}

function collect(child: ChildProcess): Promise<Result> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((res, rej) => {
    child.once('error', rej);
    child.once('close', (code, signal) => res({ code, signal, stdout, stderr }));
  });
}

describe('titled CLI', function () {
  let dataDir: string;
  const run = (args: string[], extra: Record<string, string> = {}): Promise<Result> =>
    collect(
      spawn(process.execPath, [CLI, ...args], { env: childEnv(dataDir, extra), stdio: ['ignore', 'pipe', 'pipe'] }),
    );

  before(() => {
    expect(existsSync(CLI), `compiled CLI at ${CLI}`).to.equal(true);
    dataDir = mkdtempSync(join(tmpdir(), 'titled-cli-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  describe('usage', () => {
    it('--help lists the commands and exits 0', async () => {
      const r = await run(['--help']);
      expect(r.code).to.equal(0);
      for (const c of ['serve', 'migrate', 'orgs create', 'orgs list', 'keys create', 'keys list', 'keys revoke'])
        expect(r.stdout).to.include(c);
    });

    it("<command> --help shows the command's options and exits 0", async () => {
      const r = await run(['keys', 'create', '--help']);
      expect(r.code).to.equal(0);
      expect(r.stdout).to.include('Usage: titled keys create --org NAME');
      expect(r.stdout).to.include('--label');
    });

    it('bad usage exits 2 with a message on stderr', async () => {
      const cases: [string[], RegExp][] = [
        [[], /Usage: titled <command>/],
        [['frobnicate'], /unknown command 'frobnicate'/],
        [['orgs'], /titled orgs: manage organizations/],
        [['orgs', 'rename'], /unknown command 'orgs rename'/],
        [['orgs', 'create'], /missing argument/],
        [['orgs', 'create', 'a', 'b'], /unexpected argument 'b'/],
        [['keys', 'create'], /--org NAME is required/],
        [['keys', 'revoke', 'nonsense'], /not a key id/],
        [['serve', '--port', 'abc'], /--port must be a number/],
        [['migrate', '--no-such-flag'], /Unknown option '--no-such-flag'/],
      ];
      for (const [args, message] of cases) {
        const r = await run(args);
        expect(r.code, `titled ${args.join(' ')}`).to.equal(2);
        expect(r.stderr, `titled ${args.join(' ')}`).to.match(message);
        expect(r.stdout).to.equal('');
      }
    });
  });

  describe('management commands', () => {
    it('migrate applies the migrations once, then reports the database up to date', async () => {
      const first = await run(['migrate']);
      expect(first.code, first.stderr).to.equal(0);
      expect(first.stdout).to.match(/^applied \d+ migrations? \(SQLite in /);
      const second = await run(['migrate']);
      expect(second.code, second.stderr).to.equal(0);
      expect(second.stdout).to.match(/^database is up to date/);
    });

    it('orgs create and orgs list; a duplicate name fails with exit 1 and one line on stderr', async () => {
      const created = await run(['orgs', 'create', 'acme']);
      expect(created.code, created.stderr).to.equal(0);
      expect(created.stdout).to.match(/created organization acme \(id [0-9a-f-]{36}\)/);
      const dup = await run(['orgs', 'create', 'acme']);
      expect(dup.code).to.equal(1);
      expect(dup.stderr.trim().split('\n')).to.have.length(1);
      expect(dup.stderr).to.include("organization 'acme' exists");
      const list = await run(['orgs', 'list', '--json']);
      expect(list.code).to.equal(0);
      const orgs = list.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { name: string });
      expect(orgs.map((o) => o.name)).to.deep.equal(['acme']);
    });

    it('--data-dir overrides TITLED_DATA_DIR', async () => {
      const other = mkdtempSync(join(tmpdir(), 'titled-cli-other-'));
      try {
        expect((await run(['orgs', 'create', 'elsewhere', '--data-dir', other])).code).to.equal(0);
        const here = await run(['orgs', 'list', '--json']);
        expect(here.stdout).not.to.include('elsewhere');
        const there = await run(['orgs', 'list', '--json', '--data-dir', other]);
        expect(there.stdout).to.include('"name":"elsewhere"');
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    it('keys create prints the key alone on its last line; keys list never shows secrets', async () => {
      const r = await run(['keys', 'create', '--org', 'acme', '--group', 'g1', '--group', 'g2', '--label', 'ci']);
      expect(r.code, r.stderr).to.equal(0);
      const key = r.stdout.trimEnd().split('\n').at(-1)!;
      expect(key).to.match(KEY_RE);
      const list = await run(['keys', 'list', '--org', 'acme', '--json']);
      expect(list.code).to.equal(0);
      expect(list.stdout).not.to.include(key.split('.')[1]!);
      const info = list.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((k) => k.id === key.split('.')[0]);
      expect(info).to.include({ label: 'ci', revokedAt: null });
      expect(info!.groups).to.deep.equal(['g1', 'g2']);
    });

    it('keys create for an unknown organization exits 1', async () => {
      const r = await run(['keys', 'create', '--org', 'nobody']);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(/no organization 'nobody'/);
    });

    it('keys revoke of an unknown or already revoked key exits 1', async () => {
      const r = await run(['keys', 'revoke', 'tk_0000000000000000']);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.include('no key tk_0000000000000000');
    });
  });

  describe('serve', function () {
    let daemon: ChildProcess | undefined;
    let exited: Promise<Result>;
    let base = '';
    let key = '';

    before(async () => {
      await run(['orgs', 'create', 'acme']); // exists already unless this block runs alone (--grep)
      const k = await run(['keys', 'create', '--org', 'acme']);
      key = k.stdout.trimEnd().split('\n').at(-1)!;
      const configFile = join(dataDir, 'test-config.json');
      // Revocation must take effect at once (core caches verified keys for auth.keyCacheMs).
      writeFileSync(configFile, JSON.stringify({ auth: { keyCacheMs: 0 }, workers: { pollIntervalMs: 50 } }));
      daemon = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
        env: childEnv(dataDir, { TITLED_CONFIG: configFile, PORT: '1' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      exited = collect(daemon);
      base = await new Promise<string>((res, rej) => {
        let buf = '';
        const onData = (d: Buffer) => {
          buf += d.toString();
          for (const line of buf.split('\n')) {
            if (!line.startsWith('{')) continue;
            try {
              const log = JSON.parse(line) as { msg?: string; address?: string };
              if (log.msg === 'listening' && log.address) {
                daemon!.stdout!.off('data', onData);
                res(`http://${log.address}`);
                return;
              }
            } catch {
              /* a partial line */
            }
          }
        };
        daemon!.stdout!.on('data', onData);
        void exited.then((r) => rej(new Error(`serve exited early (${r.code}): ${r.stderr}${r.stdout}`)));
      });
    });

    after(async () => {
      if (daemon && daemon.exitCode === null && daemon.signalCode === null) {
        daemon.kill('SIGKILL');
        await exited;
      }
    });

    const call = async (method: string, path: string, body?: unknown, k: string | null = key) => {
      const headers: Record<string, string> = {};
      if (k) headers.authorization = `Bearer ${k}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };

    it('--port overrides PORT and logs pino JSON lines to stdout', () => {
      expect(base).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(base).not.to.match(/:1$/);
    });

    it('answers /healthz and /readyz', async () => {
      expect(await call('GET', '/healthz', undefined, null)).to.deep.equal({ status: 200, body: { status: 'ok' } });
      const ready = await call('GET', '/readyz', undefined, null);
      expect(ready.status).to.equal(200);
      expect(ready.body.status).to.equal('ready');
    });

    it('accepts the key from keys create: POST then GET /title', async () => {
      const created = await call('POST', '/title', {
        account_data: { vehicle: { vin: VIN, year: 2003, make: 'HONDA' } },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.job_status).to.equal('pending');
      const got = await call('GET', `/title/${created.body.entryId}`);
      expect(got.status).to.equal(200);
      expect(got.body).to.include({ entryId: created.body.entryId, VIN: VIN, website: 'acme' });
    });

    it('a key revoked with keys revoke stops working', async () => {
      const k = await run(['keys', 'create', '--org', 'acme', '--label', 'short-lived']);
      const doomed = k.stdout.trimEnd().split('\n').at(-1)!;
      expect((await call('GET', '/title', undefined, doomed)).status).to.equal(200);
      const r = await run(['keys', 'revoke', doomed.split('.')[0]!]);
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.include('revoked key');
      const denied = await call('GET', '/title', undefined, doomed);
      expect(denied.status).to.equal(403);
      expect(denied.body).to.deep.equal({ error: 'invalid or revoked API key', statusCode: 403 });
      expect((await call('GET', '/title')).status, 'other keys keep working').to.equal(200);
      const again = await run(['keys', 'revoke', doomed.split('.')[0]!]);
      expect(again.code).to.equal(1);
      expect(again.stderr).to.include('already revoked');
    });

    it('stops cleanly on SIGTERM with exit code 0', async () => {
      daemon!.kill('SIGTERM');
      const r = await exited;
      expect(r.code, r.stderr).to.equal(0);
      const msgs = r.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
      expect(msgs).to.include.members(['engine started', 'listening', 'shutting down', 'stopped']);
    });
  });

  describe('bin/titled shim', () => {
    // A copy of the shim in a scratch package, so the test does not depend on the state of the real dist/.
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'titled-shim-'));
      mkdirSync(join(root, 'bin'));
      writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module' }));
      copyFileSync(SHIM, join(root, 'bin', 'titled'));
      chmodSync(join(root, 'bin', 'titled'), 0o755);
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('is executable and runs ../dist/bin/cli.js relative to itself', async () => {
      mkdirSync(join(root, 'dist', 'bin'), { recursive: true });
      writeFileSync(
        join(root, 'dist', 'bin', 'cli.js'),
        'process.stdout.write(JSON.stringify(process.argv.slice(2)));\n',
      );
      const r = await collect(
        spawn(join(root, 'bin', 'titled'), ['orgs', 'list'], { cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] }),
      );
      expect(r.code, r.stderr).to.equal(0);
      expect(JSON.parse(r.stdout)).to.deep.equal(['orgs', 'list']);
    });

    it("gives node glibc's malloc thresholds (docs/operations.md, Memory), as the bench's daemons get them", async () => {
      mkdirSync(join(root, 'dist', 'bin'), { recursive: true });
      writeFileSync(
        join(root, 'dist', 'bin', 'cli.js'),
        'process.stdout.write(`${process.env.MALLOC_MMAP_THRESHOLD_} ${process.env.MALLOC_TRIM_THRESHOLD_}`);\n',
      );
      const r = await collect(
        spawn(join(root, 'bin', 'titled'), [], {
          cwd: tmpdir(),
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '', MALLOC_TRIM_THRESHOLD_: '' },
        }),
      );
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.equal('131072 524288');
      expect(launcherEnv()).to.deep.equal({ MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '524288' });
    });

    it('tells the user to run npm run setup when dist/ is missing', async () => {
      const r = await collect(
        spawn(join(root, 'bin', 'titled'), ['--help'], { cwd: dirname(root), stdio: ['ignore', 'pipe', 'pipe'] }),
      );
      expect(r.code).to.equal(1);
      expect(r.stderr).to.include('npm run setup');
    });
  });
});
