import { expect } from 'chai';
import { clone, mergePatch } from '../../core/merge.js';

describe('mergePatch (RFC 7396)', () => {
  it('merges objects, replaces arrays and scalars, removes on null', () => {
    const target = { a: { b: 1, c: [1, 2] }, d: 'x', e: 1 };
    const out = mergePatch(target, { a: { c: [3] }, d: null, f: { g: true } });
    expect(out).to.deep.equal({ a: { b: 1, c: [3] }, e: 1, f: { g: true } });
    expect(target).to.deep.equal({ a: { b: 1, c: [1, 2] }, d: 'x', e: 1 });
  });
  it('passes the RFC 7396 appendix examples', () => {
    const cases: [unknown, unknown, unknown][] = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [
        ['a', 'b'],
        ['c', 'd'],
        ['c', 'd'],
      ],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ];
    for (const [t, p, want] of cases) expect(mergePatch(t, p)).to.deep.equal(want);
  });
});

describe('clone (deep copies of account records and entries)', () => {
  it('copies deeply, and keeps a __proto__ member as data, as JSON.parse and structuredClone do', () => {
    const v = JSON.parse('{"a":{"b":[1,{"c":null}]},"__proto__":{"x":2}}') as Record<string, unknown>;
    const c = clone(v);
    expect(c).to.deep.equal(structuredClone(v));
    expect(JSON.stringify(c)).to.equal(JSON.stringify(v));
    expect(Object.getPrototypeOf(c)).to.equal(Object.prototype);
    expect((c as { x?: unknown }).x).to.equal(undefined);
    (c.a as { b: unknown[] }).b.push(3);
    expect((v.a as { b: unknown[] }).b).to.have.length(2);
  });
});
