import { parseAddressArg, parseOrgSettings } from '../../plugins/title-collection/settings.js';
import {
  ENGINE_OPTION_HELP,
  ENGINE_OPTIONS,
  UsageError,
  isoTime,
  print,
  table,
  withEngine,
  type CommandGroup,
  type Values,
} from '../command.js';

function onOff(values: Values, name: string): boolean | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (v === 'on' || v === 'off') return v === 'on';
  throw new UsageError(`--${name} must be on or off`);
}

/** The settings `orgs set` changes (title collection, issue 15). */
function settingsPatch(values: Values): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const tc = onOff(values, 'title-collection');
  const ev = onOff(values, 'physical-title-events');
  if (tc !== undefined) patch.title_collection = tc;
  if (ev !== undefined) patch.physical_title_events = ev;
  const addr = values['receiving-address'];
  if (typeof addr === 'string') patch.receiving_address = addr === 'none' ? null : parseAddressArg(addr);
  if (Object.keys(patch).length === 0)
    throw new UsageError('nothing to set: give --title-collection, --physical-title-events or --receiving-address');
  return parseOrgSettings(patch);
}

export const orgs: CommandGroup = {
  name: 'orgs',
  summary: "manage organizations (an entry's `website`)",
  commands: [
    {
      name: 'create',
      summary: 'create an organization',
      usage: 'orgs create NAME [--json]',
      details: 'NAME: lowercase letters, digits, ".", "_", "-" (1-100 characters), starting with a letter or digit.',
      options: { ...ENGINE_OPTIONS, json: { type: 'boolean' } },
      optionHelp: [['--json', 'print the organization as JSON'], ...ENGINE_OPTION_HELP],
      positionals: [1, 1],
      async run({ values, positionals }) {
        await withEngine(values, async (engine) => {
          const org = await engine.orgs.create(positionals[0]!);
          if (values.json) print(JSON.stringify(org));
          else print(`created organization ${org.name} (id ${org.id})`);
        });
      },
    },
    {
      name: 'set',
      summary: "change an organization's settings (physical title collection)",
      usage:
        'orgs set NAME [--title-collection on|off] [--physical-title-events on|off] [--receiving-address ADDR] [--json]',
      details:
        'ADDR: "Name, street1[, street2], City, ST 12345", a JSON object {recipient_name, street1, street2, city, state, zip},\n' +
        'or none to remove it. docs/title-collection.md explains the settings.',
      options: {
        ...ENGINE_OPTIONS,
        json: { type: 'boolean' },
        'title-collection': { type: 'string' },
        'physical-title-events': { type: 'string' },
        'receiving-address': { type: 'string' },
      },
      optionHelp: [
        ['--title-collection on|off', 'enroll in physical title collection'],
        ['--physical-title-events on|off', 'title.physical_title_status.* webhooks'],
        ['--receiving-address ADDR', 'the facility that receives returned titles'],
        ['--json', 'print the settings as JSON'],
        ...ENGINE_OPTION_HELP,
      ],
      positionals: [1, 1],
      async run({ values, positionals }) {
        const patch = settingsPatch(values);
        await withEngine(values, async (engine) => {
          const org = await engine.orgs.updateSettings(positionals[0]!, patch);
          if (values.json) print(JSON.stringify(org.settings));
          else
            print(
              `organization ${org.name}: ${Object.keys(patch)
                .map((k) => `${k} ${JSON.stringify(org.settings[k])}`)
                .join(', ')}`,
            );
        });
      },
    },
    {
      name: 'list',
      summary: 'list organizations',
      usage: 'orgs list [--json]',
      options: { ...ENGINE_OPTIONS, json: { type: 'boolean' } },
      optionHelp: [['--json', 'print one JSON object per line'], ...ENGINE_OPTION_HELP],
      async run({ values }) {
        await withEngine(values, async (engine) => {
          const all = await engine.orgs.list();
          if (values.json) print(...all.map((o) => JSON.stringify(o)));
          else if (all.length === 0) print('no organizations (create one: titled orgs create NAME)');
          else
            print(
              ...table(
                ['NAME', 'ID', 'CREATED'],
                all.map((o) => [o.name, o.id, isoTime(o.createdAt)]),
              ),
            );
        });
      },
    },
  ],
};
