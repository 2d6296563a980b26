/**
 * The tool runner: tools are started by a small helper process, not by this
 * one (a spawn from a big process copies its page tables, on the event loop);
 * input and output pass whole, errors keep their codes, a runner that dies
 * has its tools run here and is started again, and an idle runner keeps no
 * process alive.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runTool, ToolError } from '../../plugins/ocr/read/exec.js';
import { runnerStats } from '../../plugins/ocr/read/tool-runner.js';

const opts = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 * 1024 };
const run = (cmd: string, args: string[], o: Partial<typeof opts> & { input?: Buffer; signal?: AbortSignal } = {}) =>
  runTool(cmd, args, { ...opts, ...o });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: Error) => e,
  );
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};
/** The pid of the process that started a tool (its parent). */
const parentOfTool = async () => Number((await run('sh', ['-c', 'echo $PPID'])).toString().trim());

describe('tool runner', function () {
  this.timeout(30_000);

  it('starts tools from the runner process, not from this one', async () => {
    const parent = await parentOfTool();
    expect(parent).to.not.equal(process.pid);
    expect(cmdline(parent)).to.include('tool-runner-child.js');
    // one runner for every call
    expect(await parentOfTool()).to.equal(parent);
  });

  it('passes stdin and a large output whole', async () => {
    const input = randomBytes(6 * 1024 * 1024);
    const out = await run('cat', [], { input });
    expect(out.equals(input)).to.equal(true);
  });

  it('keeps the error codes: missing tool, failure with its message, output too large, time limit', async () => {
    const missing = await failure(run('titled-no-such-tool', []));
    expect(missing).to.be.instanceOf(ToolError);
    expect((missing as ToolError).code).to.equal('TOOL_MISSING');
    const failed = await failure(run('sh', ['-c', 'echo broken page >&2; exit 3']));
    expect((failed as ToolError).code).to.equal('TOOL_FAILED');
    expect(failed!.message).to.include('exited with 3').and.include('broken page');
    const big = await failure(run('head', ['-c', '2000000', '/dev/zero'], { maxOutputBytes: 1000 }));
    expect((big as ToolError).code).to.equal('TOOL_OUTPUT_TOO_LARGE');
    const slow = await failure(run('sleep', ['5'], { timeoutMs: 200 }));
    expect((slow as ToolError).code).to.equal('TOOL_TIMEOUT');
  });

  it('stops a tool whose job is cancelled', async () => {
    const ctl = new AbortController();
    const marker = `${20 + (process.pid % 1000) / 1000}`;
    const sleeping = () =>
      readdirSync('/proc').filter((d) => /^\d+$/.test(d) && cmdline(Number(d)) === `sleep ${marker} `);
    const p = failure(run('sleep', [marker], { signal: ctl.signal }));
    for (let i = 0; i < 100 && !sleeping().length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sleeping()).to.have.lengthOf(1);
    ctl.abort(new Error('job cancelled'));
    const e = await p;
    expect(e!.name).to.equal('AbortError');
    await new Promise((r) => setTimeout(r, 300));
    expect(sleeping()).to.deep.equal([]);
  });

  it('runs here what a dying runner was running, and starts a new runner', async () => {
    const runner = await parentOfTool();
    const { started, ranHere } = runnerStats;
    const slow = run('sh', ['-c', 'sleep 0.5; echo done']);
    await new Promise((r) => setTimeout(r, 100));
    process.kill(runner, 'SIGKILL');
    expect((await slow).toString().trim()).to.equal('done');
    expect(runnerStats.ranHere).to.equal(ranHere + 1);
    const next = await parentOfTool();
    expect(next).to.not.equal(runner).and.not.equal(process.pid);
    expect(runnerStats.started).to.equal(started + 1);
  });

  it('a dying runner takes its tools with it: the tool run here in its place is the only one', async () => {
    const runner = await parentOfTool();
    const marker = `${30 + (process.pid % 1000) / 1000}`;
    const sleeping = () =>
      readdirSync('/proc').filter((d) => /^\d+$/.test(d) && cmdline(Number(d)) === `sleep ${marker} `);
    const parentOf = (pid: string) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    const ctl = new AbortController();
    const p = failure(run('sleep', [marker], { signal: ctl.signal }));
    for (let i = 0; i < 100 && !sleeping().length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sleeping().map(parentOf)).to.deep.equal([runner]);
    process.kill(runner, 'SIGKILL');
    // the runner's sleep goes; the one started here runs
    let left: number[] = [];
    for (let i = 0; i < 100; i++) {
      left = sleeping().map(parentOf);
      if (left.length === 1 && left[0] === process.pid) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(left).to.deep.equal([process.pid]);
    ctl.abort(new Error('done'));
    expect((await p)!.name).to.equal('AbortError');
  });

  it('keeps no process alive while idle: a CLI that ran a tool exits, and its runner with it', () => {
    const exec = fileURLToPath(new URL('../../plugins/ocr/read/exec.js', import.meta.url));
    const script = `const { runTool } = await import(${JSON.stringify(exec)});
      const out = await runTool('sh', ['-c', 'echo $PPID'], { timeoutMs: 5000, maxOutputBytes: 1000 });
      console.log(out.toString().trim());`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { timeout: 15_000, encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    const runner = Number(r.stdout.trim());
    expect(runner).to.be.above(0);
    // the runner saw its parent go and stopped
    const deadline = Date.now() + 5_000;
    while (cmdline(runner).includes('tool-runner-child') && Date.now() < deadline) spawnSync('sleep', ['0.05']);
    expect(cmdline(runner)).to.not.include('tool-runner-child');
  });
});
