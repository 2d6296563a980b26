import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ENGINE_ERRORS, ERROR_CATALOG, LOG_CODES } from '../../core/errors.js';
import { packageRoot } from '../../core/paths.js';

const doc = () => readFileSync(join(packageRoot, 'docs', 'errors.md'), 'utf8');
/** The rows of the table under `## heading` whose first column is a code. */
function codesUnder(heading: string): string[] {
  const text = doc();
  const start = text.indexOf(`## ${heading}`);
  expect(start, `docs/errors.md has a section "${heading}"`).to.be.greaterThan(-1);
  const next = text.indexOf('\n## ', start + 3);
  const section = text.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^\| ([A-Z][A-Z0-9_]+) \|/gm)].map((m) => m[1]!);
}

/** The `code` of every log call in the shipped code (`log.<level>({ ..., code: 'X' ... }`). */
function logCodesInSource(): Set<string> {
  const out = new Set<string>();
  const walk = (d: string) => {
    for (const name of readdirSync(join(packageRoot, d))) {
      const rel = join(d, name);
      if (statSync(join(packageRoot, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.ts')) {
        const text = readFileSync(join(packageRoot, rel), 'utf8');
        for (const m of text.matchAll(
          /\.(?:info|warn|error|debug|trace|fatal)\(\s*\{[^}]*?code:\s*'([A-Z][A-Z0-9_]+)'/g,
        ))
          out.add(m[1]!);
        // a code built from a status (`DOCUMENT_${status}`): the statuses it is built from
        for (const m of text.matchAll(/code:\s*`([A-Z_]+)\$\{/g)) out.add(`${m[1]}*`);
      }
    }
  };
  for (const d of ['core', 'plugins', 'bin', 'examples']) walk(d);
  return out;
}

describe('error catalog', () => {
  it('docs/errors.md lists exactly the codes and statuses of core/errors.ts', () => {
    const rows = [...doc().matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    const catalog = Object.entries(ERROR_CATALOG).map(([code, e]) => [code, e.status]);
    expect(Object.fromEntries(rows)).to.deep.equal(Object.fromEntries(catalog));
    expect(rows.length).to.equal(catalog.length);
  });

  it('docs/errors.md lists exactly the engine errors', () => {
    expect(codesUnder('Engine errors')).to.deep.equal(Object.keys(ENGINE_ERRORS));
  });

  it('docs/errors.md lists exactly the log codes, and the code writes no log code outside the catalog', () => {
    expect(codesUnder('Log codes')).to.deep.equal(Object.keys(LOG_CODES));
    const used = logCodesInSource();
    expect(used.size, 'the scan finds log calls').to.be.greaterThan(20);
    const listed = new Set(Object.keys(LOG_CODES));
    const unlisted = [...used].filter((c) =>
      c.endsWith('*') ? ![...listed].some((l) => l.startsWith(c.slice(0, -1))) : !listed.has(c),
    );
    expect(unlisted, 'log codes written but not in LOG_CODES').to.deep.equal([]);
    const unused = [...listed].filter(
      (c) => !used.has(c) && ![...used].some((u) => u.endsWith('*') && c.startsWith(u.slice(0, -1))),
    );
    expect(unused, 'log codes listed but never written').to.deep.equal([]);
  });
});
