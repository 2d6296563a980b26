/** states/title-return.ts: which states and transactions need the original paper title returned. */
import { expect } from 'chai';
import { STATE_CODES, TRANSACTION_KINDS, type TitleEntry } from '../../core/plugin-api.js';
import { officialReason } from '../../states/official-sources.js';
import {
  DEFAULT_TITLE_RETURN,
  TITLE_RETURN_RULES,
  titleReturnNeed,
  titleReturnRule,
} from '../../states/title-return.js';

const entry = (account_data: Record<string, unknown>, extra: Partial<TitleEntry> = {}): TitleEntry =>
  ({ state: '', account_data, account_status: 'originated', ...extra }) as unknown as TitleEntry;

describe('title return rules (states/title-return.ts)', function () {
  it('each rule: a real state, known transactions, an official page or unsourced', function () {
    for (const [code, rule] of [...Object.entries(TITLE_RETURN_RULES), ['(default)', DEFAULT_TITLE_RETURN] as const]) {
      if (code !== '(default)') expect(STATE_CODES as readonly string[], code).to.include(code);
      for (const t of rule.transactions) expect(TRANSACTION_KINDS as readonly string[], `${code} ${t}`).to.include(t);
      if ('url' in rule.src) {
        expect(officialReason(rule.src.url), `${code}: ${rule.src.url} is not an official site`).to.be.a('string');
        expect(rule.src.note.length, code).to.be.greaterThan(20);
      } else {
        expect(rule.src.unsourced.length, code).to.be.greaterThan(10);
      }
    }
    expect('unsourced' in DEFAULT_TITLE_RETURN.src).to.equal(true);
    expect(titleReturnRule('tx')).to.equal(TITLE_RETURN_RULES.TX);
    expect(titleReturnRule('OH')).to.equal(DEFAULT_TITLE_RETURN);
  });

  it('a new lien on paper needs the original; a lien release or an electronic title does not', function () {
    const title = { issuing_state: 'TX', number: '1' };
    const lien = { new_lienholder: { name: 'Acme' } };
    const need = titleReturnNeed(entry({ vehicle: { title }, loan: lien }, { state: 'TX' }));
    expect(need).to.deep.include({ need: 'original', state: 'TX', transactions: ['new_lien'] });
    expect(titleReturnNeed(entry({ vehicle: { title } }, { state: 'TX' })).need).to.equal('none');
    const released = entry({ vehicle: { title } }, { state: 'TX', account_status: 'account_paid' });
    expect(titleReturnNeed(released).need).to.equal('none');
    const electronic = entry({ vehicle: { title: { ...title, is_electronic: true } }, loan: lien }, { state: 'TX' });
    expect(titleReturnNeed(electronic).need).to.equal('electronic');
    expect(titleReturnNeed(entry({ loan: lien })).need).to.equal('none'); // no state
  });
});
