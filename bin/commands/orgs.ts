import { ENGINE_OPTION_HELP, ENGINE_OPTIONS, isoTime, print, table, withEngine, type CommandGroup } from '../command.js';

export const orgs: CommandGroup = {
  name: 'orgs',
  summary: 'manage organizations (an entry\'s `website`)',
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
          else print(...table(['NAME', 'ID', 'CREATED'], all.map((o) => [o.name, o.id, isoTime(o.createdAt)])));
        });
      },
    },
  ],
};
