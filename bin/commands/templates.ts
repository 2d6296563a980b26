import { resolve } from 'node:path';
import { UsageError, print, table, type Command, type Values } from '../command.js';

async function selected(positionals: string[]) {
  const { STATE_PLUGINS } = await import('../../states/registry.js');
  const code = positionals[0]?.toUpperCase();
  const states = STATE_PLUGINS.filter((s) => Object.keys(s.templates).length && (!code || s.code === code));
  if (code && !STATE_PLUGINS.some((s) => s.code === code)) throw new UsageError(`unknown state '${positionals[0]}'`);
  return states;
}

async function dirsOf(values: Values): Promise<string[]> {
  const given = (values.dir as string[] | undefined) ?? [];
  if (given.length) return given.map((d) => resolve(d));
  const { parseFormsOptions } = await import('../../plugins/forms/options.js');
  return parseFormsOptions({}).templateDirs;
}

/**
 * `titled templates [STATE]`: the official templates each state fills, where they are found, their SHA-256;
 * `titled templates fetch [STATE]`: download them from the URLs the states publish.
 */
export const templates: Command = {
  name: 'templates',
  summary: "list the states' official templates (found where, SHA-256); `templates fetch [STATE]` downloads them",
  usage: 'templates [STATE] [--dir DIR ...] [--json]  |  templates fetch [STATE] [--dir DIR] [--json]',
  details: [
    'STATUS of a listed template: ok (found, the revision mapped), missing, different_revision (found with another',
    'SHA-256: fetch the revision mapped or update the mapping), unpinned (the plugin names no SHA-256).',
    'fetch writes each template under DIR (default: the first template folder); a download whose SHA-256 is not the',
    'revision the state plugin maps is kept aside as <file>.sha256-<hash>.rejected and never filled.',
    'Exit code 1 when fetch rejected or failed any template.',
  ].join('\n'),
  options: { dir: { type: 'string', multiple: true }, json: { type: 'boolean' } },
  optionHelp: [
    ['--dir DIR', "template folder (repeatable for listing; default: the forms plugin's default folders)"],
    ['--json', 'print JSON'],
  ],
  positionals: [0, 2],
  async run({ values, positionals }) {
    const { fetchTemplates, listTemplates } = await import('../../plugins/forms/catalog.js');
    const dirs = await dirsOf(values);
    if (positionals[0] === 'fetch') {
      const dir = dirs[0];
      if (!dir) throw new UsageError('no template folder: pass --dir DIR (or configure plugins.forms.templateDirs)');
      const results = await fetchTemplates(await selected(positionals.slice(1)), dir);
      if (values.json) print(JSON.stringify({ dir, results }, null, 2));
      else
        print(
          ...table(
            ['STATE', 'FORM', 'FILE', 'STATUS', 'DETAIL'],
            results.map((r) => [r.state, r.form, r.file, r.status, r.error ?? r.path ?? '']),
          ),
        );
      return results.some((r) => r.status === 'rejected' || r.status === 'failed') ? 1 : 0;
    }
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    const rows = listTemplates(await selected(positionals), dirs);
    if (values.json) return void print(JSON.stringify({ dirs, templates: rows }, null, 2));
    print(`template folders: ${dirs.length ? dirs.join(', ') : '(none)'}`);
    print(
      ...table(
        ['STATE', 'FORM', 'FILE', 'STATUS', 'SHA-256'],
        rows.map((r) => [r.state, r.form, r.file, r.status, r.sha256 ?? r.expected ?? '-']),
      ),
    );
  },
};
