import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { UrlBlockedError, UrlGuard, type Resolver } from '../../core/net/url-guard.js';
import { WebhookClient } from '../../plugins/webhook/http.js';
import { TitledError } from '../../core/errors.js';
import { eventually } from '../helpers/engine.js';
import { vinFor } from '../pipeline/fixtures/test-stages.js';
import { receiver, settled, startWebhookEngine } from './support.js';

/** A resolver answering from a table (a name's answer may change between calls: DNS rebinding). */
function fakeDns(table: Record<string, string[] | (() => string[])>): Resolver {
  return (host, _o, cb) => {
    const v = table[host];
    const list = typeof v === 'function' ? v() : v;
    if (!list) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    cb(
      null,
      list.map((a): LookupAddress => ({ address: a, family: isIP(a) })),
    );
  };
}

const refused = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e, 'refused').to.be.instanceOf(UrlBlockedError);
  return (e as Error).message;
};

describe('outbound URL guard (core/net/url-guard)', () => {
  it('refuses loopback, private, link-local, metadata, unspecified, CGNAT, multicast and reserved addresses', () => {
    const g = new UrlGuard();
    const cases: Record<string, string> = {
      '127.0.0.1': 'loopback',
      '127.255.0.9': 'loopback',
      '::1': 'loopback',
      '10.0.0.1': 'private',
      '172.16.5.4': 'private',
      '172.31.255.255': 'private',
      '192.168.1.1': 'private',
      'fd12:3456::1': 'private',
      'fc00::1': 'private',
      '169.254.169.254': 'cloud metadata',
      'fd00:ec2::254': 'cloud metadata',
      '169.254.1.1': 'link-local',
      'fe80::1': 'link-local',
      '0.0.0.0': 'unspecified',
      '::': 'unspecified',
      '100.64.0.1': 'CGNAT',
      '100.127.255.254': 'CGNAT',
      '224.0.0.1': 'multicast',
      '239.1.2.3': 'multicast',
      'ff02::1': 'multicast',
      '255.255.255.255': 'reserved',
      '240.0.0.1': 'reserved',
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:10.1.2.3': 'private',
      '::ffff:169.254.169.254': 'cloud metadata',
      '64:ff9b::a00:1': 'private',
      '64:ff9b::7f00:1': 'loopback',
    };
    for (const [addr, why] of Object.entries(cases)) expect(g.addressBlockedReason(addr), addr).to.equal(why);
    for (const ok of [
      '8.8.8.8',
      '93.184.216.34',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '64:ff9b::808:808',
    ])
      expect(g.addressBlockedReason(ok), ok).to.equal(null);
  });

  it('checks URLs at configuration time: http/https only, no credentials, no blocked literal or resolved address', async () => {
    const g = new UrlGuard(
      [],
      fakeDns({
        localhost: ['127.0.0.1', '::1'],
        'hooks.example': ['93.184.216.34'],
        'mixed.example': ['93.184.216.34', '10.0.0.7'],
        'meta.example': ['169.254.169.254'],
      }),
    );
    expect(await refused(g.check('http://10.0.0.1/hook'))).to.match(/private/);
    expect(await refused(g.check('http://169.254.169.254/latest/meta-data'))).to.match(/cloud metadata/);
    expect(await refused(g.check('http://[::1]:8080/'))).to.match(/loopback/);
    expect(await refused(g.check('http://localhost:8080/'))).to.match(/localhost resolves to 127\.0\.0\.1, a loopback/);
    expect(await refused(g.check('http://2130706433/'))).to.match(/loopback/); // 127.0.0.1 as one number
    expect(await refused(g.check('http://0x7f.1/'))).to.match(/loopback/);
    expect(await refused(g.check('http://[::ffff:7f00:1]/'))).to.match(/loopback/);
    expect(await refused(g.check('http://mixed.example/'))).to.match(/10\.0\.0\.7, a private/);
    expect(await refused(g.check('http://meta.example/'))).to.match(/cloud metadata/);
    expect(await refused(g.check('ftp://hooks.example/'))).to.match(/scheme/);
    expect(await refused(g.check('file:///etc/passwd'))).to.match(/scheme/);
    expect(await refused(g.check('http://user:pw@hooks.example/'))).to.match(/credentials/);
    expect(await refused(g.check('http://nowhere.example/'))).to.match(/cannot resolve/);
    expect(await refused(g.check('not a url'))).to.match(/not a URL/);
    expect((await g.check('https://hooks.example/in')).addresses).to.deep.equal(['93.184.216.34']);
  });

  it('allowHosts exempts host names, addresses and CIDRs (TITLED_ALLOW_HOSTS)', async () => {
    const dns = fakeDns({
      localhost: ['127.0.0.1'],
      'hooks.internal': ['10.1.2.3'],
      'a.corp.example': ['10.9.9.9'],
      'other.internal': ['10.1.2.4'],
    });
    const g = new UrlGuard(['localhost', '10.2.0.0/16', '*.corp.example', '::1', 'fd00::/8'], dns);
    await g.check('http://localhost:3000/');
    await g.check('http://[::1]:3000/');
    await g.check('http://10.2.3.4/');
    await g.check('http://[fd00::5]/');
    await g.check('http://a.corp.example/');
    expect(await refused(g.check('http://hooks.internal/'))).to.match(/private/);
    expect(await refused(g.check('http://10.3.0.1/'))).to.match(/private/);
    expect(await refused(g.check('http://127.0.0.1/')), 'the name is allowed, not its address').to.match(/loopback/);
    expect(() => new UrlGuard(['10.0.0.0/33'])).to.throw(/not a CIDR/);
    expect(() => new UrlGuard(['nonsense/8'])).to.throw(/not a CIDR/);
  });

  it('filters the addresses a connection may use, so DNS rebinding after the check cannot reach a blocked address', async () => {
    const r = await receiver();
    try {
      let calls = 0;
      // the first answer (configuration time) is public; every later one points at the receiver on 127.0.0.1
      const g = new UrlGuard(
        [],
        fakeDns({
          'rebind.example': () => (calls++ === 0 ? ['93.184.216.34'] : ['127.0.0.1']),
          'both.example': ['127.0.0.1', '93.184.216.34'],
        }),
      );
      await g.check(`http://rebind.example:${r.port}/hook`);
      const client = new WebhookClient(g, 2000, 4, 'test');
      try {
        const res = await client.post(`http://rebind.example:${r.port}/hook`, '{}', {
          'content-type': 'application/json',
        });
        expect(res.kind).to.equal('blocked');
        expect((res as { error: string }).error).to.match(/127\.0\.0\.1, loopback/);
        const literal = await client.post(`http://127.0.0.1:${r.port}/hook`, '{}', {});
        expect(literal).to.deep.include({ kind: 'blocked' });
        const v6 = await client.post(`http://[::1]:${r.port}/hook`, '{}', {});
        expect(v6).to.deep.include({ kind: 'blocked' });
        expect(r.requests, 'the receiver never saw a request').to.have.length(0);
      } finally {
        client.close();
      }
      // a name with an allowed and a blocked address: only the allowed one is handed to the socket
      const all = await new Promise<LookupAddress[]>((res, rej) =>
        g.lookup('both.example', { all: true }, (e: Error | null, a: LookupAddress[]) => (e ? rej(e) : res(a))),
      );
      expect(all.map((a) => a.address)).to.deep.equal(['93.184.216.34']);
      const one = await new Promise<string>((res, rej) =>
        g.lookup('both.example', {}, (e: Error | null, a: string) => (e ? rej(e) : res(a))),
      );
      expect(one).to.equal('93.184.216.34');
      // and with 127.0.0.1 allowed, the same client reaches the receiver
      const allowed = new WebhookClient(new UrlGuard(['127.0.0.1']), 2000, 4, 'test');
      try {
        expect(await allowed.post(`http://127.0.0.1:${r.port}/hook`, '{}', {})).to.deep.include({
          kind: 'response',
          statusCode: 200,
        });
      } finally {
        allowed.close();
      }
      expect(r.requests).to.have.length(1);
    } finally {
      await r.close();
    }
  });

  it('webhook profiles: refused at configuration time, and at delivery time when the address is no longer allowed', async () => {
    const r = await receiver();
    const dataDir = mkdtempSync(join(tmpdir(), 'titled-guard-'));
    try {
      const strict = await startWebhookEngine({ dataDir, config: { allowHosts: [] } });
      try {
        for (const url of [
          'http://10.0.0.1/hook',
          'http://169.254.169.254/latest',
          'http://[::1]:9/hook',
          `http://localhost:${r.port}/hook`,
          `http://127.0.0.1:${r.port}/hook`,
          'ftp://example.com/x',
        ]) {
          const e = await strict.wh
            .setProfile(strict.org.name, { url, events: ['title.job_status.complete'], auth: { scheme: 'none' } })
            .then(
              () => null,
              (x: unknown) => x,
            );
          expect(e, url).to.be.instanceOf(TitledError);
          expect((e as TitledError).code).to.equal('INVALID_INPUT');
          expect((e as Error).message).to.match(/^webhook URL refused/);
        }
        expect(await strict.wh.listProfiles(strict.org.name)).to.deep.equal([]);
      } finally {
        await strict.stop();
      }
      // allowed when configured, then the configuration changes: the next delivery is refused without a request
      const lax = await startWebhookEngine({ dataDir, config: { allowHosts: ['localhost', '127.0.0.1'] } });
      const org = lax.org.name;
      await lax.wh.setProfile(org, {
        url: `http://localhost:${r.port}/hook`,
        events: ['title.account_status.*'],
        auth: { scheme: 'none' },
      });
      const { entryId } = await lax.engine.service.create(lax.p, { account_data: { vehicle: { vin: vinFor(4999) } } });
      await lax.stop();
      const later = await startWebhookEngine({ dataDir, config: { allowHosts: [] } });
      try {
        const p = await later.engine.principalFor(org);
        await later.engine.service.setAccountStatus(p, entryId, 'poa_sent');
        await eventually(async () => (await later.wh.deliveries(org, { entryId }))[0]?.status === 'failed', {
          what: 'delivery refused',
        });
        await settled(later.wh);
        const [d] = await later.wh.deliveries(org, { entryId, withAttempts: true });
        expect(d!.attempts).to.equal(1);
        expect(d!.lastError).to.match(
          /URL refused by the outbound guard: localhost resolves only to blocked addresses/,
        );
        expect(later.logs.some((l) => l.includes('"code":"WEBHOOK_URL_BLOCKED"'))).to.equal(true);
        expect(r.requests).to.have.length(0);
      } finally {
        await later.stop();
      }
    } finally {
      await r.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
