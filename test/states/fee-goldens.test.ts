import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../core/plugin-api-pure.js';
import { STATE_CODES } from '../../states/fee-schema.js';
import { goldenCaseProblems, type GoldenCase } from '../support/tester-fees.js';

/**
 * Both ways, as ESLint's rule tests: every state has a fee test through the shared
 * tester (which refuses a state with no golden case), and every fee test is for a state.
 */
const here = dirname(fileURLToPath(import.meta.url));
const one: GoldenCase = { name: 'a case', input: { transaction: 'duplicate' }, expect: { title: { total: 1 } } };

describe('state fee golden cases', () => {
  it('every state has test/states/fees/<code>.test.ts, and every file there is a state', () => {
    const src = join(packageRoot, 'test', 'states', 'fees');
    const files = readdirSync(src)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => f.replace(/\.test\.ts$/, '').toUpperCase())
      .sort();
    expect(files).to.deep.equal([...STATE_CODES]);
    for (const code of STATE_CODES)
      expect(existsSync(join(here, 'fees', `${code.toLowerCase()}.test.js`)), `${code}: compiled test`).to.equal(true);
  });

  describe('the tester refuses bad golden suites', () => {
    it('a state with no golden case', () => {
      expect(goldenCaseProblems('WY', undefined)).to.deep.equal([
        'WY has no golden case: add cases derived by hand from the cited pages (docs/fees.md, "Tests")',
      ]);
      expect(goldenCaseProblems('WY', [])).to.have.length(1);
    });
    it('fewer than three cases, an unknown state, duplicate names, a case without a name or without expectations', () => {
      const three = (c: GoldenCase) => [c, { ...c, name: 'b' }, { ...c, name: 'c' }];
      expect(goldenCaseProblems('WY', [one])).to.deep.equal(['WY has 1 golden case(s); at least 3 are needed']);
      expect(goldenCaseProblems('XX', three(one))).to.deep.equal(['XX is not one of the 50 states + DC']);
      expect(goldenCaseProblems('WY', [one, ...three(one)])).to.deep.equal(["duplicate golden case name 'a case'"]);
      expect(goldenCaseProblems('WY', three({ ...one, name: ' ' }))).to.deep.equal(['a golden case without a name']);
      expect(goldenCaseProblems('WY', three({ ...one, expect: {} }))).to.deep.equal([
        "golden case 'a case' expects nothing",
        "golden case 'b' expects nothing",
        "golden case 'c' expects nothing",
      ]);
    });
    it('accepts three named cases that expect something', () => {
      const three = (c: GoldenCase) => [c, { ...c, name: 'b' }, { ...c, name: 'c' }];
      expect(goldenCaseProblems('WY', three(one))).to.deep.equal([]);
      expect(
        goldenCaseProblems(
          'wy',
          three({ ...one, expect: { items: [{ section: 'title', feeType: 'TitleFee', value: 15 }] } }),
        ),
      ).to.deep.equal([]);
    });
  });
});
