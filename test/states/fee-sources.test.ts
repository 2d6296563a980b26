import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_CODES, loadStateFeeSchedule, stateDir } from '../../states/fee-schema.js';
import { OFFICIAL_OTHER_DOMAINS, officialReason, sourceHost } from '../../states/official-sources.js';

/**
 * Issue 19: every `src.url` of every `states/<code>/fees.json` is a state's own
 * publication (states/official-sources.ts says which sites count and why).
 * `states/<code>/local.json` (county and city tables) is held to the same list.
 */

/** Every `src.url` in the raw JSON, with its path. */
function sourceUrls(node: unknown, path = ''): { path: string; url: string }[] {
  if (Array.isArray(node)) return node.flatMap((x, i) => sourceUrls(x, `${path}[${i}]`));
  if (!node || typeof node !== 'object') return [];
  const out: { path: string; url: string }[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (k === 'src' && v && typeof v === 'object' && 'url' in v)
      out.push({ path: path || '(root)', url: String((v as { url: unknown }).url) });
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
        'https://legalclarity.org/how-alaskas-vehicle-sales-tax-works',
        'https://engineerfix.com/x',
        'https://visualfoodie.com/x',
        'https://winenfood.com/x',
        'https://eatsip365.com/x',
        'https://kenaoazimasociety.pages.dev/x',
        'https://z3npubsecrevenuedemo.zendesk.com/hc/x',
        'https://feecalculator.us/x',
        'https://www.illinoistitleservices.net/x',
        'https://oregonlicenseplate.org/x',
        'https://web.archive.org/web/2017/http://dmv.utah.gov/x',
        'https://dmv.gov.example.com/x',
        'https://notagov/x',
        'not a url',
        'https://content.govdelivery.com/accounts/SOMEBLOG/bulletins/1',
      ])
        expect(officialReason(url), url).to.equal(null);
    });
    it('lists each other-domain exception with why it is official', () => {
      for (const [domain, why] of Object.entries(OFFICIAL_OTHER_DOMAINS)) {
        expect(domain).to.match(/^[a-z0-9.-]+\.[a-z]+$/);
        expect(domain.endsWith('.gov'), `${domain} needs no exception`).to.equal(false);
        expect(why.length, `${domain}: the reason`).to.be.greaterThan(30);
        expect(officialReason(`https://www.${domain}/a`)).to.equal(why);
      }
    });
  });

  for (const code of STATE_CODES) {
    describe(code, () => {
      const read = (name: string): unknown => {
        const file = join(stateDir(code), name);
        return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
      };
      const raw = (): unknown => ({ fees: read('fees.json'), local: read('local.json') });

      it('every src.url (fees.json and local.json) is on the allow list', () => {
        const bad = sourceUrls(raw())
          .filter((s) => officialReason(s.url) === null)
          .map((s) => `${s.path}: ${sourceHost(s.url) ?? s.url}`);
        expect(
          bad,
          `${code}: not official sources (cite the state's page, or mark the figure unsourced)`,
        ).to.deep.equal([]);
      });

      it('where local taxes apply, they are marked county_not_modelled (no state has a complete county table)', () => {
        const t = loadStateFeeSchedule(code).tax;
        if (t.local?.applies.value)
          expect(t.local.county_not_modelled, `${code}: tax.local.county_not_modelled`).to.equal(true);
      });
    });
  }
});
