/**
 * Writes the OpenAPI document of the default configuration to stdout (`npm run client` turns it into
 * client/openapi.json and the typed client's client/schema.d.ts). Opens an engine on a throwaway folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createEngine } from '../index.js';

const dataDir = mkdtempSync(join(tmpdir(), 'titled-openapi-'));
try {
  const engine = await createEngine(
    { dataDir, workers: { enabled: false }, log: { level: 'warn' } },
    { logDestination: pino.destination({ fd: 2, sync: true }) },
  );
  process.stdout.write(JSON.stringify(engine.openapi(), null, 2) + '\n');
  await engine.stop();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
