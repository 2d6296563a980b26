import { expect } from 'chai';
import { auditFigures, formatAudit, LARGE_STATES, LARGEST_COUNTIES, totals } from '../../plugins/fees/audit.js';
import { STATE_CODES } from '../../states/fee-schema.js';

describe('fees: figure audit (titled fees --audit)', () => {
  const rows = auditFigures();

  it('audits every state once, the ten largest first, each with its three largest counties', () => {
    expect(rows.map((r) => r.state).sort()).to.deep.equal([...STATE_CODES].sort());
    expect(rows.slice(0, 10).map((r) => r.state)).to.deep.equal([...LARGE_STATES]);
    for (const r of rows.slice(0, 10))
      expect(r.counties!.map((k) => k.county)).to.deep.equal(LARGEST_COUNTIES[r.state as 'CA'].map(([c]) => c));
    for (const r of rows.slice(10)) expect(r.counties).to.equal(undefined);
  });

  it('every sourced figure is official (the allow list), and the totals add the rows', () => {
    for (const r of rows) expect(r.other_source, r.state).to.equal(0);
    const t = totals(rows);
    expect(t.official).to.equal(rows.reduce((n, r) => n + r.official, 0));
    expect(t.official).to.be.greaterThan(0);
    expect(t.unsourced).to.be.greaterThan(0);
  });

  it('a county check is a local tax amount, or says why there is none', () => {
    const ny = rows.find((r) => r.state === 'NY')!;
    // Kings County: 8.875% total less the state's 4% = 4.875% of $10,000
    expect(ny.counties![0]).to.deep.equal({ county: 'Kings', city: 'Brooklyn', local_tax: 487.5 });
    const il = rows.find((r) => r.state === 'IL')!;
    // Chicago (Cook): 8.50% - 6.25% = 2.25% of $10,000; Naperville (DuPage) and Antioch (Lake): 7.00% - 6.25% = 0.75%
    expect(il.counties![0]).to.deep.equal({ county: 'Cook', city: 'Chicago', local_tax: 225 });
    expect(il.counties![1]).to.deep.equal({ county: 'DuPage', city: 'Naperville', local_tax: 75 });
    expect(il.counties![2]).to.deep.equal({ county: 'Lake', city: 'Antioch', local_tax: 75 });
    const ca = rows.find((r) => r.state === 'CA')!;
    // CDTFA file effective 2026-01-01: Alhambra 10.500%, San Diego 7.750%, Anaheim 7.750%, less the state's 7.25%
    expect(ca.counties!.map((k) => k.local_tax)).to.deep.equal([325, 50, 50]);
    // the CDTFA table has every one of California's 58 counties: no "only some counties" line
    expect(ca.not_modelled.join('; ')).to.not.match(/local sales tax/);
    const pa = rows.find((r) => r.state === 'PA')!;
    expect(pa.counties!.map((k) => k.local_tax)).to.deep.equal([200, 100, 0]);
  });

  it('the text lists each state, the group totals and which large states estimate all three counties', () => {
    const text = formatAudit(rows);
    for (const code of STATE_CODES) expect(text).to.match(new RegExp(`^${code}  official \\d+  unsourced \\d+`, 'm'));
    expect(text).to.match(/^10 largest states: official \d+, unsourced \d+, other sources 0, not modelled \d+$/m);
    expect(text).to.match(/^other 41 states: /m);
    expect(text).to.match(
      /^large states estimating the local tax in all three largest counties: .*\bCA\b.*\bNY\b.*\bPA\b/m,
    );
  });
});
