/**
 * The state plugins are complete: every jurisdiction has a folder with its
 * definition (forms.ts), its README and its test through the shared tester,
 * and the explicit registry lists them all, sorted. docs/forms.md's per-state
 * table is the registry's.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { US_STATES } from '../../core/model/schemas.js';
import { packageRoot } from '../../core/paths.js';
import { STATE_PLUGINS, loadStatePlugins } from '../../states/registry.js';
import { statesTable } from '../../plugins/forms/docs.js';

describe('state plugins: completeness', () => {
  it('the registry lists the 50 states and DC, sorted by code, once each', () => {
    const codes = STATE_PLUGINS.map((p) => p.code);
    expect(codes).to.have.length(51);
    expect(codes).to.deep.equal([...codes].sort());
    expect(new Set(codes).size).to.equal(51);
    expect(codes).to.deep.equal([...US_STATES]);
  });

  for (const code of US_STATES) {
    const dir = code.toLowerCase();
    it(`${code}: has its definition, README and test through the shared tester`, () => {
      const missing: string[] = [];
      const def = join(packageRoot, 'states', dir, 'forms.ts');
      const readme = join(packageRoot, 'states', dir, 'README.md');
      const test = join(packageRoot, 'test', 'states', dir, 'forms.test.ts');
      if (!existsSync(def)) missing.push(`states/${dir}/forms.ts`);
      if (!existsSync(readme)) missing.push(`states/${dir}/README.md`);
      if (!existsSync(test)) missing.push(`test/states/${dir}/forms.test.ts`);
      expect(missing, `${code} lacks`).to.deep.equal([]);
      const src = readFileSync(test, 'utf8');
      expect(src, `test/states/${dir}/forms.test.ts`)
        .to.include(`states/${dir}/forms.js`)
        .and.include('testStatePlugin(');
      expect(readFileSync(def, 'utf8'), `states/${dir}/forms.ts`).to.match(new RegExp(`code: '${code}'`));
      expect(
        STATE_PLUGINS.find((p) => p.code === code),
        `${code} in states/registry.ts`,
      ).to.not.equal(undefined);
    });
  }

  it('loads the states config `states` names (empty = all; unknown codes refused)', () => {
    expect(loadStatePlugins([]).size).to.equal(51);
    expect([...loadStatePlugins(['tx', 'CA']).keys()]).to.deep.equal(['TX', 'CA']);
    expect(() => loadStatePlugins(['ZZ'])).to.throw(/'ZZ', which has no state plugin/);
  });

  it("docs/forms.md carries the registry's per-state table", () => {
    const doc = readFileSync(join(packageRoot, 'docs', 'forms.md'), 'utf8');
    const m = /<!-- states:begin -->\n([\s\S]*?)<!-- states:end -->/.exec(doc);
    expect(m, 'docs/forms.md has the states table markers').to.not.equal(null);
    expect(m![1]).to.equal(statesTable());
  });
});
