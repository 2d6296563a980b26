import { expect } from 'chai';
import fc from 'fast-check';
import { VinSet } from '../../core/import/vin-set.js';
import { vinFor } from '../helpers/vins.js';

const VIN_CHARS = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ'.split('');
const vinArb = fc.array(fc.constantFrom(...VIN_CHARS), { minLength: 17, maxLength: 17 }).map((a) => a.join(''));

describe('batch import: VinSet', () => {
  it('adds a VIN once: add answers false for one it has, has and size agree', () => {
    const s = new VinSet();
    expect(s.add('1HGCM82633A004352')).to.equal(true);
    expect(s.add('1HGCM82633A004352')).to.equal(false);
    expect(s.has('1HGCM82633A004352')).to.equal(true);
    expect(s.has('1HGCM82633A004353')).to.equal(false);
    expect(s.size).to.equal(1);
  });

  it('tells apart VINs that differ in one character anywhere, and the first and last of the alphabet', () => {
    const s = new VinSet(1);
    const base = '00000000000000000';
    expect(s.add(base)).to.equal(true);
    expect(s.add('ZZZZZZZZZZZZZZZZZ')).to.equal(true);
    for (let i = 0; i < 17; i++) for (const c of ['1', 'Z']) s.add(base.slice(0, i) + c + base.slice(i + 1));
    expect(s.size).to.equal(2 + 34);
    for (let i = 0; i < 17; i++) expect(s.has(base.slice(0, i) + 'Y' + base.slice(i + 1))).to.equal(false);
  });

  it('keeps every VIN as it grows (100,000 of them)', () => {
    const s = new VinSet();
    for (let n = 0; n < 100_000; n++) expect(s.add(vinFor(n))).to.equal(true);
    expect(s.size).to.equal(100_000);
    for (let n = 0; n < 100_000; n += 7) expect(s.add(vinFor(n))).to.equal(false);
    expect(s.has(vinFor(100_000))).to.equal(false);
  });

  it('answers as a Set<string> does (property)', () => {
    fc.assert(
      fc.property(fc.array(vinArb, { maxLength: 300 }), fc.array(vinArb, { maxLength: 50 }), (added, probed) => {
        const s = new VinSet(4);
        const ref = new Set<string>();
        for (const v of [...added, ...added.slice(0, 20)]) {
          expect(s.add(v)).to.equal(!ref.has(v));
          ref.add(v);
        }
        expect(s.size).to.equal(ref.size);
        for (const v of [...probed, ...added]) expect(s.has(v)).to.equal(ref.has(v));
      }),
    );
  });

  it('refuses a string that is not a normalized VIN', () => {
    const s = new VinSet();
    for (const bad of [
      '1hgcm82633a004352',
      '1HGCM82633A00435',
      '1HGCM82633A0043521',
      'IHGCM82633A004352',
      '1HGCM82633A00435é',
    ])
      expect(() => s.add(bad), bad).to.throw(RangeError, /not a normalized VIN/);
    expect(s.size).to.equal(0);
  });
});
