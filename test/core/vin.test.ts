import { expect } from 'chai';
import { checkVin, computeCheckDigit, normalizeVin } from '../../core/index.js';

describe('VIN (49 CFR 565.15)', () => {
  it('computes the check digit of known VINs', () => {
    expect(computeCheckDigit('1HGCM82633A004352')).to.equal('3');
    expect(computeCheckDigit('11111111111111111')).to.equal('1');
    // a remainder of 10 is written X
    expect(computeCheckDigit('1M8GDM9AXKP042788')).to.equal('X');
  });
  it('normalizes case, spaces and dashes', () => {
    expect(normalizeVin(' 1hgcm-8263 3a004352 ')).to.equal('1HGCM82633A004352');
  });
  it('accepts a wrong check digit but says so', () => {
    const r = checkVin('1HGCM82643A004352');
    expect(r).to.include({ valid: true, checkDigitValid: false, expectedCheckDigit: '3' });
  });
  it('refuses I, O, Q and wrong lengths', () => {
    expect(checkVin('1HGCM82633A00435I').valid).to.equal(false);
    expect(checkVin('1HGCM82633A0O4352').valid).to.equal(false);
    expect(checkVin('1HGCM82633A004').valid).to.equal(false);
    expect(checkVin('1HGCM82633A0043521').valid).to.equal(false);
  });
});
