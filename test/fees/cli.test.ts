import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The compiled CLI next to this compiled test (dist/ or whichever outDir the tests were built into). */
const CLI = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('TITLED_') || k === 'DATABASE_URL') delete env[k];
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  return new Promise((res, rej) => {
    child.once('error', rej);
    child.once('close', (code) => res({ code, stdout, stderr }));
  });
}

describe('titled fees (CLI)', () => {
  it('prints the estimate as JSON: TX, $25,000, $5,000 trade-in, Travis County', async () => {
    const r = await run(['fees', '--state', 'tx', '--price', '25000', '--trade-in', '5,000', '--county', 'Travis', '--title-state', 'TX', '--as-of', '2026-11-20']);
    expect(r.code, r.stderr).to.equal(0);
    const e = JSON.parse(r.stdout);
    expect(e.tax.total).to.equal(1_250);
    expect(e.title.total).to.equal(33);
    expect(e.registration.total).to.equal(64);
    expect(e.metadata.as_of).to.equal('2026-11-20');
    expect(e.metadata.unknown).to.have.length(1);
  });

  it('takes the transaction, vehicle and date options', async () => {
    const r = await run([
      'fees', '--state', 'NC', '--price', '10000', '--transaction', 'transfer', '--vehicle-type', 'auto', '--year', '2021',
      '--fuel', 'electric', '--weight', '3200', '--date', '2026-10-11', '--as-of', '2026-11-20', '--title-state', 'NC', '--compact',
    ]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.trim().split('\n')).to.have.length(1);
    const e = JSON.parse(r.stdout);
    expect(e.metadata.transactions).to.deep.equal(['transfer']);
    expect(e.metadata.total).to.equal(563); // test/states/fees/nc.test.ts derives it
  });

  it('bad usage exits 2 naming the option', async () => {
    for (const [args, re] of [
      [['fees', '--price', '1'], /--state is required/],
      [['fees', '--state', 'TX', '--price', 'lots'], /--price must be a non-negative number/],
      [['fees', '--state', 'TX', '--transaction', 'lease'], /--transaction must be/],
      [['fees', '--state', 'TX', '--date', '11/20/2026'], /--date must be a date YYYY-MM-DD/],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(2);
      expect(r.stderr).to.match(re);
    }
  });

  it('is listed in titled --help', async () => {
    const r = await run(['--help']);
    expect(r.stdout).to.match(/^\s+fees\s+estimate tax, registration and title fees/m);
  });
});
