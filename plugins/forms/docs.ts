/**
 * Generated documentation: the per-state table of docs/forms.md (a test keeps
 * the doc equal to the registry). `node dist/plugins/forms/docs.js` prints it.
 */
import { pathToFileURL } from 'node:url';
import { STATE_PLUGINS } from '../../states/registry.js';
import { STANDARD_FORMS } from '../../states/standard.js';
import type { StatePlugin, Transaction } from '../../states/types.js';

const short = (k: string) => k.replace(/^forms?_/, '');

function differences(p: StatePlugin): string {
  const out: string[] = [];
  for (const [t, std] of Object.entries(STANDARD_FORMS) as [Transaction | 'always', readonly string[]][]) {
    const mine = p.forms[t] ?? [];
    if (mine.join() !== std.join()) out.push(`${t}: ${mine.map(short).join(', ') || '(none)'}`);
  }
  return out.join('; ') || '-';
}

export function statesTable(states: readonly StatePlugin[] = STATE_PLUGINS): string {
  const rows = [
    '| State | Agency | Official templates | Forms that differ from the standard table | POA prints | Original title returned |',
    '|---|---|---|---|---|---|',
  ];
  for (const p of states) {
    const templates =
      Object.entries(p.templates)
        .map(([k, t]) => `${short(k)}: \`${t!.file}\``)
        .join('; ') || '-';
    const drawnNames = Object.entries(p.drawn)
      .filter(([, d]) => d?.officialName)
      .map(([k, d]) => `${short(k)} ~ ${d!.officialName}`);
    const poa = p.rules.poaFields.join(', ') || '-';
    rows.push(
      `| ${p.code} ${p.name} | ${p.agency} | ${templates}${drawnNames.length ? ` (drawn: ${drawnNames.join('; ')})` : ''} | ${differences(p)} | ${poa} | ${p.rules.originalTitleRequired ? 'yes' : 'no'} |`,
    );
  }
  return rows.join('\n') + '\n';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.stdout.write(statesTable());
