import type { Engine } from '../../core/index.js';
import { TitledError } from '../../core/index.js';
import type { SigningPlugin } from '../../plugins/signing/index.js';
import {
  ENGINE_OPTION_HELP,
  ENGINE_OPTIONS,
  UsageError,
  print,
  table,
  withEngine,
  type CommandGroup,
  type Values,
} from '../command.js';

function signing(engine: Engine): SigningPlugin {
  const p = engine.plugins.find((x) => x.name === 'signing');
  if (!p)
    throw new TitledError(
      'NOT_IMPLEMENTED',
      'the signing plugin is not enabled (add "signing" to the config\'s stages)',
    );
  return p as SigningPlugin;
}

/** The organization's id and the canonical entry id of --entry. */
async function target(engine: Engine, values: Values): Promise<{ orgId: string; entryId: string }> {
  const org = values.org;
  const entry = values.entry;
  if (typeof org !== 'string' || !org) throw new UsageError('--org NAME is required');
  if (typeof entry !== 'string' || !entry) throw new UsageError('--entry ID is required');
  const o = await engine.orgs.byName(org);
  if (!o) throw new TitledError('NOT_FOUND', `no organization '${org}'`);
  const found = await signing(engine).service.d.entries.load(o.id, entry);
  if (!found) throw new TitledError('ENTRY_NOT_FOUND', `entry ${entry} not found`);
  return { orgId: o.id, entryId: found.entry.entryId };
}

const OPTS = {
  ...ENGINE_OPTIONS,
  org: { type: 'string' as const },
  entry: { type: 'string' as const },
  json: { type: 'boolean' as const },
};
const HELP: [string, string][] = [
  ['--org NAME', 'the organization (required)'],
  ['--entry ID', 'the entry (required)'],
  ['--json', 'print JSON'],
  ...ENGINE_OPTION_HELP,
];

type Summary = Record<string, any>;
function show(values: Values, list: Summary[]): void {
  if (values.json) {
    print(...list.map((r) => JSON.stringify(r)));
    return;
  }
  if (!list.length) {
    print('no signature requests');
    return;
  }
  print(
    ...table(
      ['ID', 'TYPE', 'STATUS', 'SIGNERS', 'UPDATED'],
      list.map((r) => [
        String(r.id),
        String(r.type),
        String(r.status),
        Object.entries(r.metadata?.signer_status ?? {})
          .map(([k, v]) => `${k}:${String(v)}`)
          .join(' '),
        String(r.updated_at),
      ]),
    ),
  );
}

export const sign: CommandGroup = {
  name: 'sign',
  summary: 'operate signature requests (status, remind, cancel, mark-signed)',
  commands: [
    {
      name: 'status',
      summary: "an entry's signature requests and who has signed",
      usage: 'sign status --org NAME --entry ID [--json]',
      options: OPTS,
      optionHelp: HELP,
      async run({ values }) {
        await withEngine(values, async (engine) => {
          const { orgId, entryId } = await target(engine, values);
          show(values, await signing(engine).service.list(orgId, entryId));
        });
      },
    },
    {
      name: 'remind',
      summary:
        'send the link again to every signer of the open request who has not signed (rate-limited like ?Action=BUMP)',
      usage: 'sign remind --org NAME --entry ID',
      options: OPTS,
      optionHelp: HELP,
      async run({ values }) {
        await withEngine(values, async (engine) => {
          const { entryId } = await target(engine, values);
          const svc = signing(engine).service;
          const open = await svc.store.openRequest(entryId);
          if (!open) throw new TitledError('NOT_FOUND', `entry ${entryId} has no open signature request`);
          const r = await svc.bump(open, 'cli');
          print(`reminded the signers of ${r.id} who have not signed`);
        });
      },
    },
    {
      name: 'cancel',
      summary: "cancel the entry's open signature request (its links stop working)",
      usage: 'sign cancel --org NAME --entry ID [--reason TEXT]',
      options: { ...OPTS, reason: { type: 'string' } },
      optionHelp: [...HELP, ['--reason TEXT', 'kept in the audit log']],
      async run({ values }) {
        await withEngine(values, async (engine) => {
          const { orgId, entryId } = await target(engine, values);
          const r = await signing(engine).service.cancel(
            orgId,
            entryId,
            'cli',
            typeof values.reason === 'string' ? values.reason : '',
          );
          print(`${r.id} ${r.status}`);
        });
      },
    },
    {
      name: 'mark-signed',
      summary: 'record the open request as signed on paper (WET_SIGN originals came back): seals copies, poa_signed',
      usage: 'sign mark-signed --org NAME --entry ID [--note TEXT]',
      options: { ...OPTS, note: { type: 'string' } },
      optionHelp: [...HELP, ['--note TEXT', 'kept in the audit log']],
      async run({ values }) {
        await withEngine(values, async (engine) => {
          const { orgId, entryId } = await target(engine, values);
          const r = await signing(engine).service.markSigned(
            orgId,
            entryId,
            'cli',
            typeof values.note === 'string' ? values.note : '',
          );
          print(`${r.id} ${r.status}`);
        });
      },
    },
  ],
};
