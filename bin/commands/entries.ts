import { ACCOUNT_STATUSES } from '../../core/index.js';
import { PHYSICAL_TITLE_STATUSES } from '../../core/status.js';
import {
  ENGINE_OPTION_HELP,
  ENGINE_OPTIONS,
  UsageError,
  print,
  withEngine,
  type CommandGroup,
  type Values,
} from '../command.js';

function required(values: Values, name: string, flag: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`${flag} is required`);
  return v;
}

export const entries: CommandGroup = {
  name: 'entries',
  summary: 'read title entries and change their account or physical title status',
  commands: [
    {
      name: 'set-status',
      summary: "change an entry's account_status (or, with --physical, its physical_title_status)",
      usage: 'entries set-status --org NAME --entry ID --status S [--physical] [--note TEXT]',
      details:
        `account_status: ${ACCOUNT_STATUSES.join(', ')}.\nphysical_title_status: ${PHYSICAL_TITLE_STATUSES.join(', ')}.\n` +
        'Moves follow the state machines of core/status.ts; each change records its webhook event (title.account_status.<S>, ...).',
      options: {
        ...ENGINE_OPTIONS,
        org: { type: 'string' },
        entry: { type: 'string' },
        status: { type: 'string' },
        physical: { type: 'boolean' },
        note: { type: 'string' },
      },
      optionHelp: [
        ['--org NAME', 'the organization (required)'],
        ['--entry ID', 'the entry id (required)'],
        ['--status S', 'the new status (required)'],
        ['--physical', 'change physical_title_status instead of account_status'],
        ['--note TEXT', 'a note stored with the event'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const org = required(values, 'org', '--org NAME');
        const id = required(values, 'entry', '--entry ID');
        const status = required(values, 'status', '--status S');
        const note = typeof values.note === 'string' && values.note ? values.note : undefined;
        await withEngine(values, async (engine) => {
          const p = await engine.principalFor(org, { userId: 'cli' });
          const field = values.physical ? 'physical_title_status' : 'account_status';
          const entry = values.physical
            ? await engine.service.setPhysicalTitleStatus(p, id, status, note)
            : await engine.service.setAccountStatus(p, id, status, note);
          print(`entry ${entry.entryId}: ${field} is ${String((entry as Record<string, unknown>)[field])}`);
        });
      },
    },
    {
      name: 'get',
      summary: 'print an entry as GET /title/{id} returns it (JSON)',
      usage: 'entries get --org NAME --entry ID [--pretty]',
      options: { ...ENGINE_OPTIONS, org: { type: 'string' }, entry: { type: 'string' }, pretty: { type: 'boolean' } },
      optionHelp: [
        ['--org NAME', 'the organization (required)'],
        ['--entry ID', 'the entry id (required)'],
        ['--pretty', 'indent the JSON'],
        ...ENGINE_OPTION_HELP,
      ],
      async run({ values }) {
        const org = required(values, 'org', '--org NAME');
        const id = required(values, 'entry', '--entry ID');
        await withEngine(values, async (engine) => {
          const p = await engine.principalFor(org, { userId: 'cli' });
          const entry = await engine.service.get(p, id);
          print(JSON.stringify(entry, null, values.pretty ? 2 : undefined));
        });
      },
    },
  ],
};
