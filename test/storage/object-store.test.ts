// @ts-ignore chai 6 ships no type declarations
import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalObjectStore } from '../../core/storage/object-store.js';

describe('storage: LocalObjectStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'titled-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('40 concurrent puts of one key all succeed and leave one whole object, no temp files (issue 13, item 2)', async () => {
    const store = new LocalObjectStore(dir, 'x'.repeat(32), 'http://localhost');
    const bodies = Array.from({ length: 40 }, (_, i) => Buffer.alloc(64 * 1024, i));
    const results = await Promise.allSettled(bodies.map((b) => store.put('org/entry/form.pdf', b)));
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).to.deep.equal([]);
    const got = (await store.get('org/entry/form.pdf'))!;
    expect(bodies.some((b) => b.equals(got))).to.equal(true);
    expect(readdirSync(join(dir, 'org/entry'))).to.deep.equal(['form.pdf']);
  });
});
