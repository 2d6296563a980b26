// chai 6 ships no type declarations (see fee-data.test.ts).
// @ts-ignore
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_CODES, loadStateFeeSchedule, stateDir } from '../../states/fee-schema.js';
import { OFFICIAL_OTHER_DOMAINS, officialReason, sourceHost } from '../../states/official-sources.js';

/**
 * Issue 19: every `src.url` of every `states/<code>/fees.json` is a state's own
 * publication (states/official-sources.ts says which sites count and why).
 *
 * EXEMPT: the ten largest states are being re-sourced on branch `wt-fees`; their
 * folders are exempt until that branch is merged, when the lead removes this list.
 */
const EXEMPT = ['CA', 'FL', 'GA', 'IL', 'MI', 'NC', 'NY', 'OH', 'PA', 'TX'];

/** Every `src.url` in the raw JSON, with its path. */
function sourceUrls(node: unknown, path = ''): { path: string; url: string }[] {
  if (Array.isArray(node)) return node.flatMap((x, i) => sourceUrls(x, `${path}[${i}]`));
  if (!node || typeof node !== 'object') return [];
  const out: { path: string; url: string }[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k === 'src' && v && typeof v === 'object' && 'url' in v) out.push({ path: path || '(root)', url: String((v as { url: unknown }).url) });
    else out.push(...sourceUrls(v, path ? `${path}.${k}` : k));
  }
  return out;
}

describe('fee sources are official (issue 19)', () => {
  describe('the allow list', () => {
    it('accepts .gov hosts and the locality .us namespace', () => {
      expect(officialReason('https://dmv.dc.gov/node/155502')).to.match(/\.gov/);
      expect(officialReason('http://www.co.adams.co.us/index.aspx?NID=150')).to.match(/locality/);
      expect(officialReason('https://www.legis.state.ak.us/basis/statutes.asp')).to.match(/locality/);
    });
    it('refuses blogs, content farms, aggregators, forums, plate and title-service sites, and bare .us names', () => {
      for (const url of [
        'https://legalclarity.org/how-alaskas-vehicle-sales-tax-works', 'https://engineerfix.com/x', 'https://visualfoodie.com/x',
        'https://winenfood.com/x', 'https://eatsip365.com/x', 'https://kenaoazimasociety.pages.dev/x', 'https://z3npubsecrevenuedemo.zendesk.com/hc/x',
        'https://feecalculator.us/x', 'https://www.illinoistitleservices.net/x', 'https://oregonlicenseplate.org/x', 'https://web.archive.org/web/2017/http://dmv.utah.gov/x',
        'https://dmv.gov.example.com/x', 'https://notagov/x', 'not a url',
      ]) expect(officialReason(url), url).to.equal(null);
    });
    it('lists each other-domain exception with why it is official', () => {
      for (const [domain, why] of Object.entries(OFFICIAL_OTHER_DOMAINS)) {
        expect(domain).to.match(/^[a-z0-9.-]+\.[a-z]+$/);
        expect(domain.endsWith('.gov'), `${domain} needs no exception`).to.equal(false);
        expect(why.length, `${domain}: the reason`).to.be.greaterThan(30);
        expect(officialReason(`https://www.${domain}/a`)).to.equal(why);
      }
    });
    it('exempts exactly the ten states of branch wt-fees', () => {
      expect(EXEMPT).to.have.length(10);
      for (const code of EXEMPT) expect(STATE_CODES).to.include(code);
    });
  });

  for (const code of STATE_CODES) {
    if (EXEMPT.includes(code)) continue;
    describe(code, () => {
      const raw = (): unknown => JSON.parse(readFileSync(join(stateDir(code), 'fees.json'), 'utf8'));

      it('every src.url is on the allow list', () => {
        const bad = sourceUrls(raw()).filter((s) => officialReason(s.url) === null).map((s) => `${s.path}: ${sourceHost(s.url) ?? s.url}`);
        expect(bad, `${code}: not official sources (cite the state's page, or mark the figure unsourced)`).to.deep.equal([]);
      });

      it('where local taxes apply, they are marked county_not_modelled (no state has a complete county table)', () => {
        const t = loadStateFeeSchedule(code).tax;
        if (t.local?.applies.value) expect(t.local.county_not_modelled, `${code}: tax.local.county_not_modelled`).to.equal(true);
      });
    });
  }
});
