import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ERROR_CATALOG } from '../../core/index.js';
import { packageRoot } from '../../core/paths.js';

describe('error catalog', () => {
  it('docs/errors.md lists exactly the codes and statuses of core/errors.ts', () => {
    const doc = readFileSync(join(packageRoot, 'docs', 'errors.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    const catalog = Object.entries(ERROR_CATALOG).map(([code, e]) => [code, e.status]);
    expect(Object.fromEntries(rows)).to.deep.equal(Object.fromEntries(catalog));
    expect(rows.length).to.equal(catalog.length);
  });
});
