import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_CODES, StateFeeScheduleSchema, loadStateFeeSchedule, stateDir } from '../../states/fee-schema.js';

/** Keys whose presence makes an object a "figure" that must carry provenance. */
const FIGURE_KEYS = ['cents', 'rate', 'value', 'brackets', 'depreciation', 'min_cents', 'max_cents', 'plus_cents'];
/** Arrays whose elements are covered by the provenance of the object holding them. */
const TABLE_KEYS = new Set(['brackets', 'depreciation']);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function hasValidSrc(o: Record<string, unknown>): boolean {
  const src = o.src as Record<string, unknown> | undefined;
  if (!src || typeof src !== 'object') return false;
  const url = src.url;
  const date = src.date;
  return (
    typeof url === 'string' &&
    /^https?:\/\/[^\s/]+\.[^\s/]+/.test(url) &&
    typeof date === 'string' &&
    ISO_DATE.test(date) &&
    !Number.isNaN(Date.parse(date))
  );
}

function isUnsourced(o: Record<string, unknown>): boolean {
  return o.unsourced === true && typeof o.note === 'string' && o.note.trim().length > 0;
}

/**
 * Walk the raw JSON and return the paths of every figure that carries neither a
 * valid `src` nor `unsourced: true` + note. Figures inside tables (`brackets`,
 * `depreciation`) are covered by the table owner's provenance only.
 */
function unprovenancedFigures(node: unknown, path: string, covered = false): string[] {
  const bad: string[] = [];
  if (Array.isArray(node)) {
    node.forEach((el, i) => bad.push(...unprovenancedFigures(el, `${path}[${i}]`, covered)));
    return bad;
  }
  if (!node || typeof node !== 'object') return bad;
  const o = node as Record<string, unknown>;
  const own = hasValidSrc(o) || isUnsourced(o);
  // A figure holds a number / null / boolean / table directly under one of the
  // figure keys (the tax object's `rate` is itself a figure object, not a number).
  const isFigure = FIGURE_KEYS.some((k) => {
    const v = o[k];
    return k in o && (typeof v === 'number' || typeof v === 'boolean' || v === null || Array.isArray(v));
  });
  if (isFigure && !own && !covered) bad.push(path || '(root)');
  for (const [k, v] of Object.entries(o)) {
    if (k === 'src') continue;
    const childCovered = TABLE_KEYS.has(k) && (own || covered);
    bad.push(...unprovenancedFigures(v, path ? `${path}.${k}` : k, childCovered));
  }
  return bad;
}

/** Count numeric money/rate leaves, to make sure the walker really saw numbers. */
function countNumbers(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, el) => n + countNumbers(el), 0);
  if (!node || typeof node !== 'object') return 0;
  let n = 0;
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (typeof v === 'number' && (k === 'cents' || k === 'rate' || k.endsWith('_cents'))) n++;
    else n += countNumbers(v);
  }
  return n;
}

describe('state fee data', () => {
  it('STATE_CODES lists the 50 states + DC, sorted and unique', () => {
    expect(STATE_CODES).to.have.length(51);
    expect([...STATE_CODES]).to.deep.equal([...STATE_CODES].sort());
    expect(new Set(STATE_CODES).size).to.equal(51);
    expect(STATE_CODES).to.include('DC');
  });

  describe('provenance checker', () => {
    it('flags a figure without src', () => {
      expect(unprovenancedFigures({ title: { original: { cents: 100 } } }, '')).to.deep.equal(['title.original']);
    });
    it('flags a src with a non-http url or a non-ISO date', () => {
      expect(
        unprovenancedFigures({ a: { cents: 1, src: { url: 'ftp://x.gov/a', date: '2026-11-20' } } }, ''),
      ).to.have.length(1);
      expect(
        unprovenancedFigures({ a: { cents: 1, src: { url: 'https://x.gov/a', date: '11/20/2026' } } }, ''),
      ).to.have.length(1);
    });
    it('accepts unsourced only with a note', () => {
      expect(unprovenancedFigures({ a: { cents: 1, unsourced: true, note: 'not found' } }, '')).to.deep.equal([]);
      expect(unprovenancedFigures({ a: { cents: 1, unsourced: true } }, '')).to.deep.equal(['a']);
    });
    it('covers bracket rows by their table, but not unrelated nested figures', () => {
      const src = { url: 'https://x.gov/a', date: '2026-11-20' };
      expect(
        unprovenancedFigures({ r: { kind: 'weight', src, brackets: [{ max_lbs: 1, cents: 1 }] } }, ''),
      ).to.deep.equal([]);
      expect(unprovenancedFigures({ r: { src, extra: { cents: 1 } } }, '')).to.deep.equal(['r.extra']);
      expect(unprovenancedFigures({ r: { kind: 'weight', brackets: [{ max_lbs: 1, cents: 1 }] } }, '')).to.deep.equal([
        'r',
        'r.brackets[0]',
      ]);
    });
    it('checks figures nested in containers and nullable amounts', () => {
      expect(unprovenancedFigures({ tax: { rate: { rate: 0.06 } } }, '')).to.deep.equal(['tax.rate']);
      expect(unprovenancedFigures({ t: { lien: { cents: null } } }, '')).to.deep.equal(['t.lien']);
      expect(unprovenancedFigures({ t: { fees: [{ name: 'x', cents: 5 }] } }, '')).to.deep.equal(['t.fees[0]']);
    });
    it('the schema rejects a figure without provenance', () => {
      const raw = JSON.parse(readFileSync(join(stateDir('TX'), 'fees.json'), 'utf8'));
      delete raw.title.original.src;
      delete raw.title.original.unsourced;
      const r = StateFeeScheduleSchema.safeParse(raw);
      expect(r.success).to.equal(false);
    });
  });

  for (const code of STATE_CODES) {
    describe(code, () => {
      const dir = stateDir(code);

      it('has fees.json that validates against the schema', () => {
        const s = loadStateFeeSchedule(code);
        expect(s.state).to.equal(code);
        expect(s.last_updated).to.match(ISO_DATE);
      });

      it('every money figure has a source (http(s) url + ISO date) or is marked unsourced', () => {
        const raw = JSON.parse(readFileSync(join(dir, 'fees.json'), 'utf8'));
        expect(countNumbers(raw), 'number of figures').to.be.greaterThan(4);
        expect(unprovenancedFigures(raw, '')).to.deep.equal([]);
      });

      it('has submission instructions with payee and a mailing address', () => {
        const s = loadStateFeeSchedule(code);
        const si = s.submission_instructions;
        expect(si.payable_to.trim()).to.not.equal('');
        expect(si.address.street1.trim()).to.not.equal('');
        expect(si.address.city.trim()).to.not.equal('');
        expect(si.address.state).to.match(/^[A-Z]{2}$/);
        expect(si.address.zip).to.match(/^\d{5}(-\d{4})?$/);
        // The address must carry a source, or be explicitly marked unsourced with a reason.
        if (si.src) {
          expect(si.src.url).to.match(/^https?:\/\//);
          expect(si.src.date).to.match(ISO_DATE);
        } else {
          expect(si.unsourced, 'submission_instructions without src must be unsourced').to.equal(true);
          expect(si.note ?? '').to.not.equal('');
        }
      });

      it('has the core fee figures', () => {
        const s = loadStateFeeSchedule(code);
        expect(s.title.original).to.have.property('cents');
        expect(s.title.duplicate).to.have.property('cents');
        expect(s.title.lien_recording).to.have.property('cents');
        expect(s.tax.rate).to.have.property('rate');
        expect(s.tax.trade_in_credit).to.have.property('value');
        expect(s.registration.rule).to.have.property('kind');
      });

      it('has a README.md', () => {
        const readme = join(dir, 'README.md');
        expect(existsSync(readme), readme).to.equal(true);
        expect(readFileSync(readme, 'utf8').trim().length).to.be.greaterThan(100);
      });
    });
  }
});
