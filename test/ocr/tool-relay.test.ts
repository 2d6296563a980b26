/**
 * The tool relay (plugins/ocr/read/tool-relay.ts): a reading worker's system
 * tools are started by the main thread's tool runner, not by the worker
 * (which would copy the whole process's page tables, as a spawn from the
 * main thread does); errors keep their codes; an abort in the worker stops
 * the tool.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { runTool } from '../../plugins/ocr/read/exec.js';
import { relayStats, serveToolRelay } from '../../plugins/ocr/read/tool-relay.js';

type Answer = { out?: string; error?: { name: string; code?: string } };

describe('tool relay: reading workers run tools through the main thread', function () {
  this.timeout(30_000);
  let worker: Worker;
  const ask = (m: { cmd: string; args: string[] }) =>
    new Promise<Answer>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage(m);
    });

  beforeEach(() => {
    const { port1, port2 } = new MessageChannel();
    serveToolRelay(port1, runTool);
    worker = new Worker(new URL('./relay-worker.js', import.meta.url), {
      workerData: { toolPort: port2 },
      transferList: [port2],
    });
  });
  afterEach(() => worker.terminate());

  it("starts the worker's tools from the tool runner, not from this process", async () => {
    const before = relayStats.served;
    const { out } = await ask({ cmd: 'sh', args: ['-c', 'echo $PPID'] });
    const parent = Number(out!.trim());
    expect(parent).to.not.equal(process.pid);
    expect(readFileSync(`/proc/${parent}/cmdline`, 'utf8')).to.include('tool-runner-child.js');
    expect(relayStats.served - before).to.equal(1);
  });

  it('keeps the error codes: a missing tool, a failing one', async () => {
    expect((await ask({ cmd: 'no-such-tool-titled', args: [] })).error).to.deep.equal({
      name: 'ToolError',
      code: 'TOOL_MISSING',
    });
    expect((await ask({ cmd: 'sh', args: ['-c', 'exit 3'] })).error).to.deep.equal({
      name: 'ToolError',
      code: 'TOOL_FAILED',
    });
  });

  it("stops the tool when the worker's read is aborted", async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'titled-relay-')), 'pid');
    worker.postMessage({ abortAfterMs: 300 });
    const answer = await ask({ cmd: 'sh', args: ['-c', `echo $$ > ${pidFile}; exec sleep 600`] });
    expect(answer.error?.name).to.equal('AbortError');
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    // the tool is killed and reaped (else this waits until the suite's time limit)
    const alive = () => {
      try {
        return !/^\d+ \([^)]*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    while (alive()) await new Promise((r) => setTimeout(r, 50));
  });
});
