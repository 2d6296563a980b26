import { expect } from 'chai';
import { UrlBlockedError, UrlGuard } from '../../core/net/url-guard.js';

describe('outbound URL guard: IANA special-purpose blocks (issue 13, item 7)', () => {
  const g = new UrlGuard();

  it('refuses every IPv4 special-purpose block', () => {
    for (const a of [
      '192.0.0.1',
      '192.0.0.170',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '198.19.255.254',
      '192.88.99.1',
      '192.31.196.1',
      '192.175.48.1',
      '192.52.193.1',
      '255.255.255.255',
      '0.1.2.3',
    ]) {
      expect(g.addressBlockedReason(a), a).to.be.a('string');
    }
  });

  it('refuses every IPv6 special-purpose block', () => {
    for (const a of [
      '64:ff9b:1::1',
      '64:ff9b:1:c000:2:100::',
      '100::1',
      '100:0:0:1::1',
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:2::1',
      '2001:3::1',
      '2001:4:112::1',
      '2001:20::1',
      '2001:db8::1',
      '3fff::1',
      '2002:808:808::1',
      '2620:4f:8000::1',
      '5f00::1',
      'fec0::1',
      'feff::1',
      '::ffff:0:7f00:1',
    ]) {
      expect(g.addressBlockedReason(a), a).to.be.a('string');
    }
  });

  it('names the IPv4 address a 6to4, NAT64 or Teredo address carries', () => {
    expect(g.addressBlockedReason('2002:7f00:1::1')).to.match(/^loopback \(embedded in 6to4\)/);
    expect(g.addressBlockedReason('2002:a9fe:a9fe::1')).to.match(/^cloud metadata \(embedded in 6to4\)/);
    expect(g.addressBlockedReason('64:ff9b:1:a9fe:a9:fe00::')).to.match(
      /^cloud metadata \(embedded in NAT64 local-use\)/,
    );
    // Teredo: client 127.0.0.1 is stored inverted (80ff:fffe)
    expect(g.addressBlockedReason('2001:0:808:808::80ff:fffe')).to.match(/^loopback \(embedded in Teredo\)/);
    expect(g.addressBlockedReason('64:ff9b::a9fe:a9fe')).to.equal('cloud metadata');
  });

  it('IP literals in URLs are refused before any request', () => {
    for (const u of [
      'http://[2002:7f00:1::1]/',
      'http://[2002:a9fe:a9fe::1]/',
      'http://[64:ff9b:1::a00:1]/',
      'http://[fec0::1]/',
      'http://[2001::1]/',
      'http://198.18.0.1/',
      'http://192.0.0.8/',
      'http://192.0.2.1/',
      'http://[100::1]/',
      'http://[2001:db8::1]/',
    ]) {
      expect(() => g.assertUrl(u), u).to.throw(UrlBlockedError);
    }
  });

  it('public addresses, NAT64 of a public address and mapped public addresses stay allowed', () => {
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '192.0.1.1',
      '198.20.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001::1',
      '64:ff9b::808:808',
      '::ffff:8.8.8.8',
    ]) {
      expect(g.addressBlockedReason(a), a).to.equal(null);
    }
  });

  it('allowHosts exempts a named block, but not the internal IPv4 address a 6to4 address carries', () => {
    const a = new UrlGuard(['2002::/16', '198.18.0.0/15']);
    expect(a.addressBlockedReason('2002:808:808::1')).to.equal(null);
    expect(a.addressBlockedReason('198.18.0.5')).to.equal(null);
    expect(a.addressBlockedReason('2002:7f00:1::1')).to.match(/loopback/);
    expect(new UrlGuard(['2002::/16', '127.0.0.1']).addressBlockedReason('2002:7f00:1::1')).to.equal(null);
  });
});
