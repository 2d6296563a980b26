import { ENGINE_OPTION_HELP, ENGINE_OPTIONS, print, withEngine, type Command } from '../command.js';

export const prune: Command = {
  name: 'prune',
  summary: 'remove old outbox rows, failed jobs and ended webhook deliveries now, and exit',
  usage: 'prune [--json] [--data-dir DIR] [--database-url URL] [--config FILE]',
  details:
    'One pass of the loop every daemon runs (config `retention`, docs/storage.md): prints the rows removed by table.',
  options: { ...ENGINE_OPTIONS, json: { type: 'boolean' } },
  optionHelp: [['--json', 'print the counts as JSON'], ...ENGINE_OPTION_HELP],
  async run({ values }) {
    await withEngine(values, async (engine) => {
      const removed = await engine.pruner.pruneNow();
      if (values.json) print(JSON.stringify(removed));
      else print(...Object.entries(removed).map(([table, n]) => `${table}: ${n} removed`));
    });
  },
};
