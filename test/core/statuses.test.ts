import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { packageRoot } from '../../core/paths.js';
import { ACCOUNT_STATUS_MOVES, JOB_STATUS_MOVES, PHYSICAL_TITLE_STATUS_MOVES, assertMove } from '../../core/status.js';

function docTable(section: string): Record<string, string[]> {
  const doc = readFileSync(join(packageRoot, 'docs', 'statuses.md'), 'utf8');
  const body = doc.split(/^## /m).find((s) => s.startsWith(section + '\n'))!;
  const rows = [...body.matchAll(/^\| ([a-z_]+) \|([a-z_, ]*)\|$/gm)];
  return Object.fromEntries(
    rows
      .filter((m) => m[1] !== 'from')
      .map((m) => [
        m[1],
        m[2]!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ]),
  );
}

describe('status machines', () => {
  const machines = {
    job_status: JOB_STATUS_MOVES,
    account_status: ACCOUNT_STATUS_MOVES,
    physical_title_status: PHYSICAL_TITLE_STATUS_MOVES,
  };
  for (const [field, table] of Object.entries(machines)) {
    it(`docs/statuses.md shows the ${field} table of core/status.ts`, () => {
      const fromDoc = docTable(field);
      expect(fromDoc).to.deep.equal(Object.fromEntries(Object.entries(table).map(([k, v]) => [k, [...v]])));
    });
    it(`${field}: every listed move is allowed and every other move is refused with CONFLICT`, () => {
      const all = new Set(Object.values(table).flat());
      for (const [from, tos] of Object.entries(table)) {
        for (const to of all) {
          const call = () => assertMove(field, table as Record<string, readonly string[]>, from, to);
          if ((tos as readonly string[]).includes(to)) expect(call).not.to.throw();
          else
            expect(call)
              .to.throw(/cannot move/)
              .with.property('code', 'CONFLICT');
        }
      }
    });
  }
});
