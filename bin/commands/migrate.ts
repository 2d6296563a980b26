import { ENGINE_OPTION_HELP, ENGINE_OPTIONS, print, withEngine, type Command } from '../command.js';

export const migrate: Command = {
  name: 'migrate',
  summary: 'apply pending database migrations and exit',
  usage: 'migrate [--data-dir DIR] [--database-url URL] [--config FILE]',
  details: 'Safe to run again: migrations already applied are skipped. `serve` also applies them on start.',
  options: { ...ENGINE_OPTIONS },
  optionHelp: ENGINE_OPTION_HELP,
  async run({ values }) {
    await withEngine(
      values,
      async (engine) => {
        const applied = await engine.db.migrate();
        const where = engine.db.dialect === 'sqlite' ? `SQLite in ${engine.config.dataDir}` : 'PostgreSQL';
        if (applied.length === 0) print(`database is up to date (${where})`);
        else
          print(
            `applied ${applied.length} migration${applied.length === 1 ? '' : 's'} (${where}):`,
            ...applied.map((n) => `  ${n}`),
          );
      },
      { migrate: false },
    );
  },
};
