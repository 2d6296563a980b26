import { expect } from 'chai';
import { clone, jsonCopy, mergePatch, reloaded } from '../../core/merge.js';

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

describe('jsonCopy and reloaded (the entry as a reload shows it, without the JSON text round trip)', () => {
  const roundTrip = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

  it('copies plain JSON deeply, equal to the round trip, member order and a __proto__ member kept', () => {
    const entry = JSON.parse(
      '{"b":1,"a":{"z":[1,2.5,"x",null,true,{"k":[]}],"y":""},"10":"n","2":false,"__proto__":{"polluted":1},' +
        '"s":"\\ud800 lone surrogate","big":1e21,"neg":-3}',
    ) as Record<string, unknown>;
    const copy = jsonCopy(entry)!;
    expect(copy).to.deep.equal(roundTrip(entry));
    expect(JSON.stringify(copy)).to.equal(JSON.stringify(entry));
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    // deep: changing the copy leaves the value as it was
    ((copy.a as Record<string, unknown[]>).z[5] as Record<string, unknown[]>).k.push(1);
    expect(JSON.stringify(entry)).to.include('{"k":[]}');
    expect(reloaded(entry)).to.deep.equal(roundTrip(entry));
  });

  it('declines what JSON changes or drops; reloaded then gives the round trip', () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const holes: unknown[] = [1];
    holes[2] = 3;
    const odd: Record<string, unknown> = {
      undefinedMember: { a: undefined, b: 1 },
      undefinedInArray: [1, undefined],
      hole: holes,
      nan: { n: Number.NaN },
      infinity: { n: Number.POSITIVE_INFINITY },
      negativeZero: { n: -0 },
      date: { at: new Date(0) },
      classInstance: { m: new Money(5) },
      nullPrototype: Object.assign(Object.create(null) as object, { a: 1 }),
      map: new Map([['a', 1]]),
      fn: { f: () => 1 },
      bigint: { b: 1n },
      withToJSON: { toJSON: () => 'x' },
    };
    for (const [name, v] of Object.entries(odd)) {
      expect(jsonCopy(v), name).to.equal(undefined);
      if (name !== 'bigint') expect(reloaded(v), name).to.deep.equal(roundTrip(v));
    }
    expect(() => reloaded(odd.bigint)).to.throw(TypeError);
    // a cycle: the round trip's TypeError, not a walk without end
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => reloaded(cycle)).to.throw(TypeError);
  });
});
