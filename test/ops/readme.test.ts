import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { COMMANDS } from '../../bin/commands/index.js';
import { isGroup } from '../../bin/command.js';
import { packageRoot } from '../../core/paths.js';

const README = readFileSync(join(packageRoot, 'README.md'), 'utf8');

describe('README as a newcomer meets it', () => {
  it('lists every CLI command', () => {
    const missing: string[] = [];
    for (const e of COMMANDS) {
      const names = isGroup(e) ? e.commands.map((c) => `${e.name} ${c.name}`) : [e.name];
      for (const n of names) {
        const [group, sub] = n.split(' ');
        // a group row may list several subcommands: `titled webhooks list\|remove`
        const listed = sub
          ? new RegExp(`\`titled ${group} [^\`]*\\b${sub}\\b`).test(README)
          : README.includes(`\`titled ${group}`);
        if (!listed) missing.push(n);
      }
    }
    expect(missing).to.deep.equal([]);
  });

  it('shows the stages config/default.json enables', () => {
    const stages = (
      JSON.parse(readFileSync(join(packageRoot, 'config', 'default.json'), 'utf8')) as { stages: string[] }
    ).stages;
    const row = README.split('\n').find((l) => l.startsWith('| `stages` |'))!;
    expect(row).to.include(JSON.stringify(stages).replace(/,/g, ', '));
  });

  it('links the feature docs', () => {
    for (const doc of ['sandbox', 'fees', 'forms', 'enrichment', 'console', 'import', 'openapi', 'operations'])
      expect(README).to.include(`(docs/${doc}.md)`);
  });
});
