/**
 * The outbound URL guard (SSRF): every request to a URL a client or an
 * operator supplied (webhook endpoints, documents fetched by OCR) goes
 * through it. Only http and https; no host that resolves to a loopback,
 * private, link-local, cloud-metadata, unspecified, CGNAT, multicast,
 * reserved or any other IANA special-purpose address (IPv4 or IPv6, and the
 * IPv4 address a 6to4, NAT64, Teredo or mapped IPv6 address carries), unless
 * config `allowHosts` (env TITLED_ALLOW_HOSTS) exempts the host name or the address.
 *
 * Two checks: `check(url)` when a URL is configured (it resolves the host and
 * refuses it when any address is blocked), and, on every request, `lookup` as
 * got's `dnsLookup`, which filters the addresses the socket may connect to, so
 * a DNS answer that changed since (rebinding) cannot reach a blocked address.
 * Node does not call `lookup` for IP literals, so `assertUrl` checks those
 * before each request. Redirects must not be followed (a 3xx is an answer).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Why an address is refused; the first matching range names it. Every block
 * of the IANA IPv4 and IPv6 special-purpose address registries is here (they
 * are not ordinary unicast on the internet), plus the deprecated site-local
 * fec0::/10 and cloud metadata addresses. `::ffff:0:0/96` (IPv4-mapped) and
 * `64:ff9b::/96` (NAT64 well-known prefix) are not: an address there reaches
 * the IPv4 address it embeds and is judged as that address.
 */
const BLOCKED_V4: readonly [reason: string, ranges: readonly [string, number][]][] = [
  ['cloud metadata', [['169.254.169.254', 32]]],
  ['unspecified', [['0.0.0.0', 8]]],
  ['loopback', [['127.0.0.0', 8]]],
  [
    'private',
    [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ],
  ],
  ['link-local', [['169.254.0.0', 16]]],
  ['CGNAT', [['100.64.0.0', 10]]],
  ['IETF protocol assignment', [['192.0.0.0', 24]]],
  [
    'documentation',
    [
      ['192.0.2.0', 24],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
    ],
  ],
  ['benchmarking', [['198.18.0.0', 15]]],
  ['6to4 relay anycast', [['192.88.99.0', 24]]],
  [
    'AS112',
    [
      ['192.31.196.0', 24],
      ['192.175.48.0', 24],
    ],
  ],
  ['AMT', [['192.52.193.0', 24]]],
  ['multicast', [['224.0.0.0', 4]]],
  ['reserved', [['240.0.0.0', 4]]],
];
const BLOCKED_V6: readonly [reason: string, ranges: readonly [string, number][]][] = [
  ['cloud metadata', [['fd00:ec2::254', 128]]],
  ['unspecified', [['::', 128]]],
  ['loopback', [['::1', 128]]],
  [
    'reserved',
    [
      ['::', 96],
      ['::ffff:0:0:0', 96],
    ],
  ],
  ['NAT64 local-use', [['64:ff9b:1::', 48]]],
  [
    'discard-only',
    [
      ['100::', 64],
      ['100:0:0:1::', 64],
    ],
  ],
  ['Teredo', [['2001::', 32]]],
  [
    'documentation',
    [
      ['2001:db8::', 32],
      ['3fff::', 20],
    ],
  ],
  ['IETF protocol assignment', [['2001::', 23]]],
  ['6to4', [['2002::', 16]]],
  ['AS112', [['2620:4f:8000::', 48]]],
  ['SRv6 SID', [['5f00::', 16]]],
  ['private', [['fc00::', 7]]],
  ['link-local', [['fe80::', 10]]],
  ['site-local', [['fec0::', 10]]],
  ['multicast', [['ff00::', 8]]],
];

const familyOf = (addr: string): 'ipv4' | 'ipv6' => (isIP(addr) === 6 ? 'ipv6' : 'ipv4');

function buildBlockLists(table: typeof BLOCKED_V4, family: 'ipv4' | 'ipv6'): [string, BlockList][] {
  return table.map(([reason, ranges]) => {
    const list = new BlockList();
    for (const [net, bits] of ranges) list.addSubnet(net, bits, family);
    return [reason, list];
  });
}

/** The 16 bytes of an IPv6 address (isIP(addr) === 6), zone id ignored. */
function ipv6Bytes(addr: string): number[] {
  let a = addr.split('%')[0]!.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    tail.push(...dotted.slice(1).map(Number));
    a = a.slice(0, dotted.index) + '0:0';
  }
  const [head, rest] = a.split('::') as [string, string | undefined];
  const groups = (x: string) => (x ? x.split(':').map((g) => parseInt(g, 16)) : []);
  const h = groups(head);
  const r = rest === undefined ? [] : groups(rest);
  const all = rest === undefined ? h : [...h, ...Array(8 - h.length - r.length).fill(0), ...r];
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

const v4 = (b: number[]) => b.join('.');

/**
 * The IPv4 address an IPv6 address carries, and how: IPv4-mapped and the
 * NAT64 well-known prefix (the connection reaches that IPv4 address), NAT64
 * local-use (RFC 6052 /48 layout), 6to4 (bits 16-47) and Teredo (the
 * server, and the client with its bits inverted).
 */
function embeddedV4(
  b: number[],
): { how: 'mapped' | 'NAT64' | 'NAT64 local-use' | '6to4' | 'Teredo'; addresses: string[] } | null {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return { how: 'mapped', addresses: [v4(b.slice(12))] };
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (zero(4, 12)) return { how: 'NAT64', addresses: [v4(b.slice(12))] };
    if (b[4] === 0 && b[5] === 1) return { how: 'NAT64 local-use', addresses: [v4([b[6]!, b[7]!, b[9]!, b[10]!])] };
  }
  if (b[0] === 0x20 && b[1] === 0x02) return { how: '6to4', addresses: [v4(b.slice(2, 6))] };
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0)
    return { how: 'Teredo', addresses: [v4(b.slice(4, 8)), v4(b.slice(12).map((x) => x ^ 0xff))] };
  return null;
}

/** A URL or address the guard refuses; `code` is what got reports for a refused connection. */
export class UrlBlockedError extends Error {
  readonly code = 'ERR_URL_BLOCKED';
  constructor(message: string) {
    super(message);
    this.name = 'UrlBlockedError';
  }
}

export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** got's `dnsLookup` / node's `lookup` signature. */
type LookupFunction = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions | number,
  callback: (...args: any[]) => void,
) => void;

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

export class UrlGuard {
  private readonly blockedV4 = buildBlockLists(BLOCKED_V4, 'ipv4');
  private readonly blockedV6 = buildBlockLists(BLOCKED_V6, 'ipv6');
  private readonly allowedAddresses = new BlockList();
  private readonly allowedNames = new Set<string>();
  private readonly allowedSuffixes: string[] = [];
  private readonly resolver: Resolver;

  /**
   * @param allowHosts host names (`hooks.internal`, `*.corp.example`), addresses (`127.0.0.1`, `::1`) or CIDRs (`10.1.0.0/16`) exempted from the guard.
   * @param resolver resolves host names (default `dns.lookup`); tests replace it.
   */
  constructor(allowHosts: readonly string[] = [], resolver?: Resolver) {
    this.resolver = resolver ?? ((h, o, cb) => dnsLookup(h, o, cb));
    for (const raw of allowHosts) {
      const entry = stripBrackets(raw.trim().toLowerCase());
      if (!entry) continue;
      const slash = entry.indexOf('/');
      if (slash >= 0) {
        const net = entry.slice(0, slash);
        const bits = Number(entry.slice(slash + 1));
        const v = isIP(net);
        if (!v || !Number.isInteger(bits) || bits < 0 || bits > (v === 4 ? 32 : 128))
          throw new Error(`allowHosts: '${raw}' is not a CIDR`);
        this.allowedAddresses.addSubnet(net, bits, v === 4 ? 'ipv4' : 'ipv6');
      } else if (isIP(entry)) {
        this.allowedAddresses.addAddress(entry, familyOf(entry));
      } else if (entry.startsWith('*.')) {
        this.allowedSuffixes.push(entry.slice(1));
      } else {
        this.allowedNames.add(entry.replace(/\.$/, ''));
      }
    }
  }

  private hostAllowed(hostname: string): boolean {
    const h = hostname.toLowerCase().replace(/\.$/, '');
    return this.allowedNames.has(h) || this.allowedSuffixes.some((s) => h.endsWith(s));
  }

  /** Why an IPv4 address is refused, or null. */
  private v4Reason(addr: string): string | null {
    if (this.allowedAddresses.check(addr, 'ipv4')) return null;
    for (const [reason, list] of this.blockedV4) if (list.check(addr, 'ipv4')) return reason;
    return null;
  }

  /**
   * Why `address` is refused, or null when a connection to it is allowed. An
   * IPv6 address that embeds an IPv4 address (mapped, NAT64, 6to4, Teredo) is
   * refused when the embedded address is, even when `allowHosts` names the
   * IPv6 block: allowing 2002::/16 does not allow 6to4 into 127.0.0.0/8.
   */
  addressBlockedReason(address: string): string | null {
    const addr = stripBrackets(address);
    const v = isIP(addr);
    if (!v) return 'not an IP address';
    if (v === 4) return this.v4Reason(addr);
    const embedded = embeddedV4(ipv6Bytes(addr));
    if (embedded) {
      for (const a of embedded.addresses) {
        const why = this.v4Reason(a);
        if (why)
          return embedded.how === 'mapped' || embedded.how === 'NAT64' ? why : `${why} (embedded in ${embedded.how})`;
      }
      if (embedded.how === 'mapped' || embedded.how === 'NAT64') return null;
    }
    if (this.allowedAddresses.check(addr, 'ipv6')) return null;
    for (const [reason, list] of this.blockedV6) if (list.check(addr, 'ipv6')) return reason;
    return null;
  }

  /**
   * Parses `url` and checks what can be checked without DNS: scheme, no
   * credentials in the URL, and an IP-literal host. Called before every
   * request (node skips `lookup` for IP literals).
   */
  assertUrl(url: string | URL): URL {
    let u: URL;
    try {
      u = typeof url === 'string' ? new URL(url) : url;
    } catch {
      throw new UrlBlockedError(`'${String(url)}' is not a URL`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new UrlBlockedError(`URL scheme ${u.protocol} is not allowed (http and https only)`);
    if (u.username || u.password) throw new UrlBlockedError('credentials in the URL are not allowed');
    const host = stripBrackets(u.hostname);
    if (!host) throw new UrlBlockedError('URL has no host');
    if (isIP(host) && !this.hostAllowed(host)) {
      const why = this.addressBlockedReason(host);
      if (why) throw new UrlBlockedError(`${host} is a ${why} address`);
    }
    return u;
  }

  /**
   * The configuration-time check: `assertUrl`, then the host's DNS answer;
   * refused when the host does not resolve or when any of its addresses is
   * blocked (a name pointing at an internal address is refused outright, even
   * though delivery would only ever connect to its allowed addresses).
   */
  async check(url: string | URL): Promise<{ url: URL; addresses: string[] }> {
    const u = this.assertUrl(url);
    const host = stripBrackets(u.hostname);
    if (isIP(host)) return { url: u, addresses: [host] };
    const addrs = await new Promise<LookupAddress[]>((res, rej) => {
      this.resolver(host, { all: true }, (err, a) =>
        err ? rej(new UrlBlockedError(`cannot resolve ${host}: ${err.code ?? err.message}`)) : res(a),
      );
    });
    if (addrs.length === 0) throw new UrlBlockedError(`${host} resolves to no address`);
    if (!this.hostAllowed(host)) {
      for (const a of addrs) {
        const why = this.addressBlockedReason(a.address);
        if (why) throw new UrlBlockedError(`${host} resolves to ${a.address}, a ${why} address`);
      }
    }
    return { url: u, addresses: addrs.map((a) => a.address) };
  }

  /**
   * A `lookup` for got (`dnsLookup`) and node's http: resolves like
   * `dns.lookup` and hands back only allowed addresses, so the socket connects
   * to an address that passed the guard; fails with ERR_URL_BLOCKED when none is left.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    const wantAll = (opts as LookupAllOptions).all === true;
    this.resolver(hostname, { ...opts, all: true } as LookupAllOptions, (err, addrs) => {
      if (err) return callback(err);
      const allowed = this.hostAllowed(hostname)
        ? addrs
        : addrs.filter((a) => this.addressBlockedReason(a.address) === null);
      if (allowed.length === 0) {
        const first = addrs[0];
        const why = first ? this.addressBlockedReason(first.address) : null;
        return callback(
          new UrlBlockedError(
            `${hostname} resolves only to blocked addresses${first ? ` (${first.address}, ${why})` : ''}`,
          ),
        );
      }
      if (wantAll) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
