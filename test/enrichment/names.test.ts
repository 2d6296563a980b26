import { expect } from 'chai';
import { formatLastFirst, namesMatch, parseName } from '../../core/model/names.js';

describe('enrichment: name matching (docs/enrichment.md, "Name matching")', () => {
  const same: [string, string][] = [
    ['Jane Q. Doe', 'JANE Q DOE'],
    ['jane doe', 'DOE, JANE Q'],
    ['Jane Quinn Doe', 'Jane Q Doe'],
    ['Jane Doe', 'Jane Quinn Doe'],
    ['Robert Smith Jr.', 'BOB SMITH'],
    ['Bob Smith', 'Rob Smith'],
    ['William J. Clinton III', 'Bill Clinton'],
    ['Elizabeth Ann Warren', 'Liz Warren'],
    ['Katherine Jones', 'Kathy Jones'],
    ["Mary-Ann O'Neil", 'MARYANN ONEIL'],
    ['Mary Ann Oneil', "Maryann O'Neil"],
    ['José Núñez', 'JOSE NUNEZ'],
    ['Dr. Anna Smith-Jones', 'ANNA JONES'],
    ['SMITH JR, JOHN A', 'John A. Smith'],
    ['John Smith, Jr.', 'JOHN SMITH JR'],
    ['Acme Motors, LLC', 'ACME MOTORS LLC'],
  ];
  const different: [string, string][] = [
    ['John Smith Jr', 'John Smith Sr'],
    ['Jane R. Doe', 'Jane Q. Doe'],
    ['Jane Doe', 'Jane Dole'],
    ['J. Doe', 'Jane Doe'],
    ['Alexander Grant', 'Alexandra Grant'],
    ['Jane Doe', 'John Doe'],
    ['Acme Motors LLC', 'Acme Motor Sales LLC'],
    ['Acme Motors LLC', 'Acme Motors'],
    ['', 'Jane Doe'],
  ];
  for (const [a, b] of same)
    it(`"${a}" matches "${b}"`, () => {
      expect(namesMatch(a, b)).to.equal(true);
      expect(namesMatch(b, a)).to.equal(true);
    });
  for (const [a, b] of different)
    it(`"${a}" does not match "${b}"`, () => {
      expect(namesMatch(a, b)).to.equal(false);
      expect(namesMatch(b, a)).to.equal(false);
    });

  it('structured parts match a full name', () => {
    expect(
      namesMatch({ name_first: 'Robert', name_middle: 'T', name_last: 'Smith', name_suffix: 'Jr' }, 'BOB SMITH JR'),
    ).to.equal(true);
    expect(namesMatch({ name_first: 'Robert', name_last: 'Smith', name_suffix: 'Sr' }, 'Robert Smith Jr')).to.equal(
      false,
    );
  });

  it('parses the DMV comma form and formats it back', () => {
    const p = parseName('DOE, JANE Q');
    expect(p).to.include({ first: 'JANE', last: 'DOE', suffix: '' });
    expect(p.middle).to.deep.equal(['Q']);
    expect(formatLastFirst(parseName('Jane Q. Doe Jr.'))).to.equal('DOE JR, JANE Q');
    expect(parseName('Mr. John V. Smith').middle).to.deep.equal(['V']);
    expect(parseName('John Smith V').suffix).to.equal('V');
  });
});
