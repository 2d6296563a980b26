/**
 * The reading worker's entry point (see pool.ts): reads a PDF while every
 * page has a text layer, answers the analysis, or the text layer when a page
 * needs OCR, or the error.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { analyzeInThisThread, NeedsOcr } from '../analyze.js';
import { sentError } from '../read/tool-error.js';
import { useToolRelay } from '../read/tool-relay.js';
import type { WorkerTask } from './pool.js';

// system tools are started by the main thread's tool runner (read/tool-relay.ts)
const toolPort = (workerData as { toolPort?: MessagePort } | undefined)?.toolPort;
if (toolPort) useToolRelay(toolPort);

parentPort!.on('message', async (m: WorkerTask & { id: number }) => {
  try {
    const ok = await analyzeInThisThread(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength), {
      ...m.options,
      textLayerOnly: true,
    });
    parentPort!.postMessage({ id: m.id, ok });
  } catch (e) {
    if (e instanceof NeedsOcr) return parentPort!.postMessage({ id: m.id, needsOcr: e.layer });
    parentPort!.postMessage({ id: m.id, error: sentError(e as Error) });
  }
});
