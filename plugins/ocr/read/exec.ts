/**
 * Runs a system tool (tesseract, poppler's pdftotext, pdftoppm) without a
 * shell: fixed argument arrays, input on stdin, a time limit, a cap on the
 * output kept in memory, and the abort signal of the stage.
 *
 * From the main thread a tool is started by the tool runner
 * (tool-runner.ts), a small helper process, not by this process: Linux
 * starts a process by copying the parent's page tables, and Node does it
 * synchronously, so a spawn from a daemon of 400 MB blocked its event loop
 * for about 15 ms and cost as much CPU, for every page OCR'd (1.3 ms from the
 * runner). The reading workers ask the main thread, which starts their
 * tools through the same runner (tool-relay.ts). Other worker threads, and a
 * process whose runner cannot start, spawn here.
 */
import { spawn } from 'node:child_process';
import { isMainThread } from 'node:worker_threads';
import { ToolError } from './tool-error.js';
import { hasToolRelay, relayRun } from './tool-relay.js';
import { runnerRun } from './tool-runner.js';

export { ToolError };

export interface RunOptions {
  input?: Buffer | Uint8Array;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Runs `cmd args`, writes `input` to stdin, resolves stdout; rejects with ToolError. */
export function runTool(cmd: string, args: readonly string[], o: RunOptions): Promise<Buffer> {
  if (isMainThread) return runnerRun(cmd, args, o, spawnHere);
  return hasToolRelay() ? relayRun(cmd, args, o) : spawnHere(cmd, args, o);
}

/** runTool in this process: the tool is this process's child. */
export function spawnHere(cmd: string, args: readonly string[], o: RunOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: o.env ?? process.env, signal: o.signal });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let settled = false;
    const finish = (e: Error | null, v?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (e) {
        child.kill('SIGKILL');
        reject(e);
      } else resolve(v!);
    };
    const timer = setTimeout(
      () => finish(new ToolError(`${cmd} took longer than ${o.timeoutMs} ms`, 'TOOL_TIMEOUT')),
      o.timeoutMs,
    );
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > o.maxOutputBytes)
        return finish(new ToolError(`${cmd} produced more than ${o.maxOutputBytes} bytes`, 'TOOL_OUTPUT_TOO_LARGE'));
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 2000) err += c.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT')
        finish(
          new ToolError(`${cmd} is not installed (bin/setup installs poppler-utils and tesseract-ocr)`, 'TOOL_MISSING'),
        );
      else finish(e);
    });
    child.on('close', (code) => {
      if (code === 0) finish(null, Buffer.concat(out));
      else
        finish(
          new ToolError(
            `${cmd} exited with ${code}: ${err.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`,
            'TOOL_FAILED',
          ),
        );
    });
    // a tool that exits before reading all of stdin (a damaged PDF) makes the write fail with EPIPE: its exit code tells
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.input ?? Buffer.alloc(0));
  });
}
