/**
 * The outbound URL guard (SSRF): every request to a URL a client or an
 * operator supplied (webhook endpoints, documents fetched by OCR) goes
 * through it. Only http and https; no host that resolves to a loopback,
 * private, link-local, cloud-metadata, unspecified, CGNAT, multicast or
 * reserved address, unless config `allowHosts` (env TITLED_ALLOW_HOSTS)
 * exempts the host name or the address.
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

/** Why an address is refused; the first matching range names it. */
const BLOCKED: readonly [reason: string, ranges: readonly [string, number][]][] = [
  ['cloud metadata', [['169.254.169.254', 32], ['fd00:ec2::254', 128]]],
  ['unspecified', [['0.0.0.0', 8], ['::', 128]]],
  ['loopback', [['127.0.0.0', 8], ['::1', 128]]],
  ['private', [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['fc00::', 7]]],
  ['link-local', [['169.254.0.0', 16], ['fe80::', 10]]],
  ['CGNAT', [['100.64.0.0', 10]]],
  ['multicast', [['224.0.0.0', 4], ['ff00::', 8]]],
  ['reserved', [['240.0.0.0', 4], ['::', 96]]],
];

/** IPv6 prefixes that carry an IPv4 address in their last 32 bits (NAT64 well-known prefix); ::ffff:0:0/96 is handled by BlockList itself. */
const V4_IN_V6_PREFIXES = ['64:ff9b::'];

const familyOf = (addr: string): 'ipv4' | 'ipv6' => (isIP(addr) === 6 ? 'ipv6' : 'ipv4');

function buildBlockLists(): [string, BlockList][] {
  return BLOCKED.map(([reason, ranges]) => {
    const list = new BlockList();
    for (const [net, bits] of ranges) {
      const family = familyOf(net);
      list.addSubnet(net, bits, family);
      if (family === 'ipv4') for (const p of V4_IN_V6_PREFIXES) list.addSubnet(`${p}${net}`, 96 + bits, 'ipv6');
    }
    return [reason, list];
  });
}

/** A URL or address the guard refuses; `code` is what got reports for a refused connection. */
export class UrlBlockedError extends Error {
  readonly code = 'ERR_URL_BLOCKED';
  constructor(message: string) {
    super(message);
    this.name = 'UrlBlockedError';
  }
}

export type Resolver = (hostname: string, options: LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/** got's `dnsLookup` / node's `lookup` signature. */
type LookupFunction = (hostname: string, options: LookupOneOptions | LookupAllOptions | number, callback: (...args: any[]) => void) => void;

const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

export class UrlGuard {
  private readonly blocked = buildBlockLists();
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
        if (!v || !Number.isInteger(bits) || bits < 0 || bits > (v === 4 ? 32 : 128)) throw new Error(`allowHosts: '${raw}' is not a CIDR`);
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

  /** Why `address` is refused, or null when a connection to it is allowed. */
  addressBlockedReason(address: string): string | null {
    const addr = stripBrackets(address);
    const v = isIP(addr);
    if (!v) return 'not an IP address';
    const family = v === 4 ? 'ipv4' : 'ipv6';
    if (this.allowedAddresses.check(addr, family)) return null;
    for (const [reason, list] of this.blocked) if (list.check(addr, family)) return reason;
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
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UrlBlockedError(`URL scheme ${u.protocol} is not allowed (http and https only)`);
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
      this.resolver(host, { all: true }, (err, a) => (err ? rej(new UrlBlockedError(`cannot resolve ${host}: ${err.code ?? err.message}`)) : res(a)));
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
      const allowed = this.hostAllowed(hostname) ? addrs : addrs.filter((a) => this.addressBlockedReason(a.address) === null);
      if (allowed.length === 0) {
        const first = addrs[0];
        const why = first ? this.addressBlockedReason(first.address) : null;
        return callback(new UrlBlockedError(`${hostname} resolves only to blocked addresses${first ? ` (${first.address}, ${why})` : ''}`));
      }
      if (wantAll) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
