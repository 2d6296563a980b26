/**
 * A worker thread for test/ocr/tool-relay.test.ts: runs the tools it is sent
 * with runTool, which in a worker that has a relay port asks the main thread.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { runTool } from '../../plugins/ocr/read/exec.js';
import { useToolRelay } from '../../plugins/ocr/read/tool-relay.js';

useToolRelay((workerData as { toolPort: MessagePort }).toolPort);
const abort = new AbortController();
parentPort!.on('message', (m: { cmd?: string; args?: string[]; abortAfterMs?: number }) => {
  if (m.abortAfterMs !== undefined) return void setTimeout(() => abort.abort(new Error('aborted')), m.abortAfterMs);
  runTool(m.cmd!, m.args!, { timeoutMs: 300_000, maxOutputBytes: 1024 * 1024, signal: abort.signal }).then(
    (out) => parentPort!.postMessage({ out: out.toString() }),
    (e: Error & { code?: string }) => parentPort!.postMessage({ error: { name: e.name, code: e.code } }),
  );
});
