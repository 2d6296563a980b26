/** Shared set-up of the submission tests: an engine with the stages a filing needs, entries, and polling. */
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eventually, startTestEngine, type Dialect, type TestEngine } from '../helpers/engine.js';
import { createEntry, waitForStatus } from '../http/support.js';
import { fixtureEntry } from '../support/fixtures.js';
import type { SubmissionPlugin } from '../../plugins/submission/index.js';
import type { WebhookPlugin } from '../../plugins/webhook/index.js';
import { receiver, type Receiver } from '../webhook/support.js';
import { computeCheckDigit } from '../../core/vin.js';

let vinSeq = Math.floor(Math.random() * 90_000);
/** A fresh valid VIN (the fixture's with another serial), so every test entry is its own. */
export function freshVin(): string {
  const base = `1HGCM82603A${String(100_000 + (vinSeq++ % 800_000)).slice(-6)}`;
  return base.slice(0, 8) + computeCheckDigit(base)! + base.slice(9);
}

export const OPERATOR_ORG = 'ops-team';

export interface SubTestEngine extends TestEngine {
  plugin: SubmissionPlugin;
  opKey: string;
}

export async function startSubmissionEngine(
  o: {
    dialect?: Dialect;
    submission?: Record<string, unknown>;
    webhook?: boolean;
    /** Options of the title-collection plugin: the plugin (its carrier) is enabled when given. */
    titleCollection?: Record<string, unknown>;
  } = {},
): Promise<SubTestEngine> {
  const tc = o.titleCollection ? ['title-collection'] : [];
  const t = await startTestEngine({
    dialect: o.dialect,
    config: {
      stages: ['intake', 'fees', 'forms', ...tc, 'submission', ...(o.webhook ? ['webhook'] : [])],
      allowHosts: ['127.0.0.1'],
      plugins: {
        submission: {
          operatorOrgs: [OPERATOR_ORG],
          pollIntervalMs: 20,
          statusPollMs: 10,
          retryBaseMs: 10,
          ...o.submission,
        },
        ...(o.webhook ? { webhook: { retryBaseMs: 20, pollIntervalMs: 20, timeoutMs: 5000 } } : {}),
        ...(o.titleCollection ? { 'title-collection': o.titleCollection } : {}),
      },
    },
  });
  const plugin = t.engine.plugins.find((p) => p.name === 'submission') as SubmissionPlugin;
  const op = await t.newOrg(OPERATOR_ORG);
  return Object.assign(t, { plugin, opKey: op.key });
}

/** An entry of `state` (the forms fixture), processed to `complete`. */
export async function readyEntry(
  t: TestEngine,
  state = 'TX',
  patch: (ad: any) => void = () => undefined,
): Promise<any> {
  const ad = fixtureEntry(state, 'full').account_data as any;
  ad.vehicle.vin = freshVin();
  patch(ad);
  const id = await createEntry(t, { account_data: ad });
  return waitForStatus(t, id);
}

/** Polls the submission until `pred` holds. */
export async function waitSubmission(
  t: TestEngine,
  entryId: string,
  sid: string,
  pred: (s: any) => boolean,
  what: string,
): Promise<any> {
  return eventually(
    async () => {
      const r = await t.request('GET', `/title/${entryId}/submit/${sid}`);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return pred(r.body) ? r.body : null;
    },
    { what, tries: 2000, everyMs: 25 },
  );
}

/** The text of a PDF (pdftotext), or null when poppler is not installed. */
export function pdfText(bytes: Buffer): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'titled-sub-'));
  const file = join(dir, 'p.pdf');
  writeFileSync(file, bytes);
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } catch {
    return null;
  }
}

/** The account_status events of an entry, in outbox order. */
export async function accountEvents(t: TestEngine, entryId: string): Promise<string[]> {
  return (await t.engine.outbox.forEntry(entryId))
    .map((e) => e.name)
    .filter((n) => n.startsWith('title.account_status.'))
    .map((n) => n.slice('title.account_status.'.length));
}

/** The mail room MAIL packets' labels go from in the carrier tests. */
export const MAILROOM = {
  recipient_name: 'Titled Mail Room',
  street1: '200 Filing Ln',
  city: 'Austin',
  state: 'TX',
  zip: '78702',
};

/**
 * An engine whose MAIL packets go from the mail room with a label of the title-collection carrier (the sandbox's
 * unless `titleCollection` names another), neither polled.
 */
export function startCarrierEngine(
  dialect: Dialect | undefined,
  o: { titleCollection?: Record<string, unknown>; webhook?: boolean } = {},
): Promise<SubTestEngine> {
  return startSubmissionEngine({
    dialect,
    webhook: o.webhook,
    titleCollection: { pollIntervalMs: 0, ...o.titleCollection },
    submission: { mailCarrier: { fromAddress: MAILROOM, pollIntervalMs: 0 } },
  });
}

/** A webhook receiver of the engine's organization's `title.account_status.*` events (the engine runs `webhook`). */
export async function accountStatusHooks(t: TestEngine): Promise<Receiver> {
  const hooks = await receiver();
  const wh = t.engine.plugins.find((p) => p.name === 'webhook') as WebhookPlugin;
  await wh.setProfile(t.org.name, {
    url: `${hooks.url}/hook`,
    events: ['title.account_status.*'],
    auth: { scheme: 'none' },
  });
  return hooks;
}

/**
 * An engine with the sandbox carrier for MAIL packets (no polls), and `submissions` of the compiled CLI run on
 * the same data folder and configuration, as an operator beside the daemon would.
 */
export async function startCarrierCliEngine(): Promise<{
  t: SubTestEngine;
  submissions: (args: string[]) => Promise<{ stdout: string; stderr: string }>;
}> {
  const plugins = {
    'title-collection': { pollIntervalMs: 0 },
    submission: { operatorOrgs: [OPERATOR_ORG], mailCarrier: { fromAddress: MAILROOM, pollIntervalMs: 0 } },
  };
  const t = await startSubmissionEngine({
    titleCollection: plugins['title-collection'],
    submission: { mailCarrier: plugins.submission.mailCarrier },
  });
  const config = join(t.dataDir, 'cli-config.json');
  writeFileSync(
    config,
    JSON.stringify({ stages: ['intake', 'fees', 'forms', 'title-collection', 'submission'], plugins }),
  );
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('TITLED_') || k === 'DATABASE_URL') delete env[k];
  const cli = fileURLToPath(new URL('../../bin/cli.js', import.meta.url));
  const submissions = (args: string[]) =>
    promisify(execFile)(process.execPath, [cli, 'submissions', ...args], {
      env: { ...env, TITLED_DATA_DIR: t.dataDir, TITLED_CONFIG: config },
    });
  return { t, submissions };
}
