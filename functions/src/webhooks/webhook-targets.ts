/**
 * Where Evident may send a webhook. The subscriber chooses the URL, so without a guard every
 * delivery is a request forgery waiting to happen: Evident's servers would POST to whatever the
 * URL names, the cloud metadata server (which hands out credentials) and the private network
 * included. The guard stands in three places:
 *  - `checkTargetUrl` reads the URL alone (scheme, credentials, IP literals, names that are
 *    internal by convention), so a bad URL is refused before anything is resolved;
 *  - `resolveTarget` resolves the name and refuses it when any of its addresses is not public,
 *    so the subscriber learns at once that the URL is refused;
 *  - `guardedLookup` is the `lookup` the sender gives http(s).request, so the address checked is
 *    the address the socket connects to: a name can resolve to a public address when checked
 *    and to 10.0.0.1 a second later (DNS rebinding).
 * Node connects to an IP-literal host without calling `lookup`, which is why `checkTargetUrl`
 * must vet literals itself. The sender follows no redirect, so a public target cannot bounce the
 * POST inwards.
 */
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Whether loopback targets (http://127.0.0.1:port, http://localhost:port) are allowed: only in the emulators. */
export interface TargetPolicy {
  allowLoopback: boolean;
}

/** A URL checked by its text: `{ url }` or why it is refused, as a sentence fragment a problem `detail` can use. */
export type TargetCheck = { url: URL } | { refused: string };

/**
 * A target checked by its addresses: all of them, or that it is refused. What a name resolves
 * to is the resolver's answer, not the subscriber's: saying it ("x.corp resolves to 10.1.2.3")
 * would map the internal network for whoever asks. So `refused` only says the target is not
 * allowed, the same words whether the name resolves inside or not at all, and `detail` says
 * why, for the logs.
 */
export type TargetResolution = { addresses: string[] } | { refused: string; detail?: string };

/** What a subscriber is told of a name refused for what it resolves to, whatever that is. */
export const notAllowed = (host: string) => `${host} is not an allowed target (it must resolve only to public addresses)`;

/**
 * Every address of a host name. `family` (0, 4 or 6) and `hints` are those http.request asks
 * for; a lookup may ignore them, as the guard keeps only addresses of the family asked for.
 */
export type AddressLookup = (host: string, options?: { family?: 0 | 4 | 6; hints?: number }) => Promise<LookupAddress[]>;

/**
 * The connection was refused because the target is not public. The sender tells it from a
 * network failure by its class (or `code`): retrying cannot help, the subscription is at fault.
 * Its message is what the subscriber may read (`notAllowed`); `detail`, what the name resolved
 * to, is for the logs.
 */
export class TargetRefused extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
  readonly detail: string;

  constructor(host: string, detail: string) {
    super(notAllowed(host));
    this.name = 'TargetRefused';
    this.detail = detail;
  }
}

/** Longer URLs are refused: no endpoint needs more, and the URL is stored and shown. */
const MAX_URL_LENGTH = 2048;

/** A range of addresses that may not be a target, and what to call it. */
interface Range {
  subnet: string;
  prefix: number;
  kind: string;
  /** Loopback ranges are allowed when the policy allows loopback. */
  loopback?: true;
}

const PRIVATE = 'a private address';
const DOCUMENTATION = 'a documentation address';

/** IPv4 ranges that are not public (IANA special-purpose registry); the first match names the address. */
const IPV4_RANGES: readonly Range[] = [
  { subnet: '169.254.169.254', prefix: 32, kind: 'a link-local address (cloud metadata)' },
  { subnet: '100.100.100.200', prefix: 32, kind: 'a carrier-grade NAT address (Alibaba Cloud metadata)' },
  { subnet: '255.255.255.255', prefix: 32, kind: 'the broadcast address' },
  { subnet: '0.0.0.0', prefix: 8, kind: 'an unspecified (this-network) address' },
  { subnet: '10.0.0.0', prefix: 8, kind: PRIVATE },
  { subnet: '100.64.0.0', prefix: 10, kind: 'a carrier-grade NAT address' },
  { subnet: '127.0.0.0', prefix: 8, kind: 'a loopback address', loopback: true },
  { subnet: '169.254.0.0', prefix: 16, kind: 'a link-local address' },
  { subnet: '172.16.0.0', prefix: 12, kind: PRIVATE },
  { subnet: '192.0.0.0', prefix: 24, kind: 'an IETF protocol assignment address' },
  { subnet: '192.0.2.0', prefix: 24, kind: DOCUMENTATION },
  { subnet: '192.88.99.0', prefix: 24, kind: 'a 6to4 relay address' },
  { subnet: '192.168.0.0', prefix: 16, kind: PRIVATE },
  { subnet: '198.18.0.0', prefix: 15, kind: 'a benchmarking address' },
  { subnet: '198.51.100.0', prefix: 24, kind: DOCUMENTATION },
  { subnet: '203.0.113.0', prefix: 24, kind: DOCUMENTATION },
  { subnet: '224.0.0.0', prefix: 4, kind: 'a multicast address' },
  { subnet: '240.0.0.0', prefix: 4, kind: 'a reserved address' },
];

/**
 * IPv6 ranges that are not public. Anything outside 2000::/3 (global unicast) is refused as
 * well, so these only name the ranges a reader would recognise. IPv4-mapped, NAT64 and 6to4
 * addresses are judged by the IPv4 address they carry (`embeddedIpv4`), before these.
 */
const IPV6_RANGES: readonly Range[] = [
  { subnet: 'fd00:ec2::254', prefix: 128, kind: 'a unique local address (AWS metadata)' },
  { subnet: '::', prefix: 128, kind: 'an unspecified address' },
  { subnet: '::1', prefix: 128, kind: 'a loopback address', loopback: true },
  { subnet: '64:ff9b:1::', prefix: 48, kind: 'a local-use NAT64 address' },
  { subnet: '100::', prefix: 64, kind: 'a discard-only address' },
  { subnet: '2001::', prefix: 32, kind: 'a Teredo tunnelling address' },
  { subnet: '2001:2::', prefix: 48, kind: 'a benchmarking address' },
  { subnet: '2001:10::', prefix: 28, kind: 'a reserved (ORCHID) address' },
  { subnet: '2001:20::', prefix: 28, kind: 'a reserved (ORCHIDv2) address' },
  { subnet: '2001:db8::', prefix: 32, kind: DOCUMENTATION },
  { subnet: '3fff::', prefix: 20, kind: DOCUMENTATION },
  { subnet: 'fc00::', prefix: 7, kind: 'a unique local address' },
  { subnet: 'fe80::', prefix: 10, kind: 'a link-local address' },
  { subnet: 'fec0::', prefix: 10, kind: 'a site-local address' },
  { subnet: 'ff00::', prefix: 8, kind: 'a multicast address' },
];

/**
 * One BlockList per range, so a match says which range. The IPv4 and IPv6 tables stay apart:
 * a BlockList matches IPv4 rules against IPv4-mapped IPv6 addresses and back, which would name
 * an embedded address by the wrong text.
 */
function compile(ranges: readonly Range[], type: 'ipv4' | 'ipv6'): (Range & { list: BlockList })[] {
  return ranges.map((range) => {
    const list = new BlockList();
    list.addSubnet(range.subnet, range.prefix, type);
    return { ...range, list };
  });
}

const IPV4_LISTS = compile(IPV4_RANGES, 'ipv4');
const IPV6_LISTS = compile(IPV6_RANGES, 'ipv6');
const GLOBAL_UNICAST = compile([{ subnet: '2000::', prefix: 3, kind: '' }], 'ipv6')[0]!.list;

/** Names that are internal by convention (RFC 6761, 6762, 8375, ICANN's .internal). */
const INTERNAL_SUFFIXES: readonly [suffix: string, kind: string][] = [
  ['.internal', 'a private-use name (.internal)'],
  ['.local', 'a multicast DNS name (.local)'],
  ['.localhost', 'a loopback name (.localhost)'],
  ['.home.arpa', 'a home network name (.home.arpa)'],
];

/** Why an address may not be a target, or undefined when it may. */
export function blockedReason(address: string, policy: TargetPolicy): string | undefined {
  const predicate = addressPredicate(address, policy);
  return predicate && `${address} ${predicate}`;
}

/** What makes an address no target, worded to follow it ("is a private address"); undefined when it may be one. */
function addressPredicate(address: string, policy: TargetPolicy): string | undefined {
  // A zone ("fe80::1%eth0") names an interface, not part of the address.
  const bare = address.split('%')[0]!;
  const family = isIP(bare);
  if (family === 0) return 'is not an IP address';
  if (family === 6) {
    const embedded = embeddedIpv4(bare);
    if (embedded) {
      const kind = rangeKind(embedded.ipv4, 4, policy);
      return kind && `${embedded.via} ${embedded.ipv4}, ${kind}`;
    }
  }
  const kind = rangeKind(bare, family, policy);
  return kind && `is ${kind}`;
}

/** The kind of non-public range an address lies in, or undefined for a public one. */
function rangeKind(address: string, family: number, policy: TargetPolicy): string | undefined {
  for (const range of family === 4 ? IPV4_LISTS : IPV6_LISTS) {
    if (!range.list.check(address, family === 4 ? 'ipv4' : 'ipv6')) continue;
    return range.loopback && policy.allowLoopback ? undefined : range.kind;
  }
  if (family === 6 && !GLOBAL_UNICAST.check(address, 'ipv6')) return 'a reserved address';
  return undefined;
}

/**
 * The IPv4 address an IPv6 address stands for, when packets to it reach that IPv4 address:
 * IPv4-mapped (::ffff:0:0/96, a dual-stack socket connects to the IPv4 address), NAT64
 * (64:ff9b::/96, the translator does) and 6to4 (2002::/16, a relay does).
 */
function embeddedIpv4(address: string): { via: string; ipv4: string } | undefined {
  const words = ipv6Words(address);
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  const dotted = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  if (zeros(0, 5) && words[5] === 0xffff) return { via: 'maps to', ipv4: dotted(words[6]!, words[7]!) };
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) {
    return { via: 'translates (NAT64) to', ipv4: dotted(words[6]!, words[7]!) };
  }
  if (words[0] === 0x2002) return { via: 'tunnels (6to4) to', ipv4: dotted(words[1]!, words[2]!) };
  return undefined;
}

/** The eight 16-bit words of an IPv6 address that `isIP` accepted (so its form is not checked again). */
function ipv6Words(address: string): number[] {
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.split('::');
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The name without its trailing dots; tried from the first dot of a run only, so a run that does not end the name costs its length once. */
const withoutTrailingDots = (host: string) => host.replace(/(?<!\.)\.+$/, '');

/** Why a host name may not be a target, or undefined when it may (its addresses are checked later). */
function nameRefusal(host: string, policy: TargetPolicy): string | undefined {
  // "localhost." is localhost: a trailing dot only says the name is absolute.
  const name = withoutTrailingDots(host);
  if (name === 'localhost') return policy.allowLoopback ? undefined : `${host} is a loopback name`;
  if (name === 'metadata' || name === 'metadata.google.internal') return `${host} is the cloud metadata server`;
  for (const [suffix, kind] of INTERNAL_SUFFIXES) {
    if (name.endsWith(suffix)) return `${host} is ${kind}`;
  }
  // The resolver completes a dotless name with the machine's search domains, which are internal.
  if (!name.includes('.')) return `${host} is not a fully qualified name`;
  return undefined;
}

/** The host of a URL as an address or name: an IPv6 literal without its brackets. */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Whether a host is loopback: exactly when allowing loopback changes the verdict on it. */
function isLoopbackHost(host: string): boolean {
  if (withoutTrailingDots(host) === 'localhost') return true;
  return isIP(host) !== 0 && blockedReason(host, { allowLoopback: true }) !== blockedReason(host, { allowLoopback: false });
}

/** Checks a webhook URL by its text alone; the URL returned has no fragment (it is never sent). */
export function checkTargetUrl(raw: string, policy: TargetPolicy): TargetCheck {
  if (raw.length > MAX_URL_LENGTH) return { refused: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  if (!URL.canParse(raw)) return { refused: 'the URL is not a valid absolute URL' };
  const url = new URL(raw);
  const host = hostOf(url);
  // Plain http only reaches the emulators on this machine; anywhere else the body and signature travel in clear.
  const emulatorHttp = url.protocol === 'http:' && policy.allowLoopback && isLoopbackHost(host);
  if (url.protocol !== 'https:' && !emulatorHttp) return { refused: 'the URL must use https' };
  // Credentials in a URL end up in logs and in the subscription list; the signature authenticates Evident.
  if (url.username !== '' || url.password !== '') return { refused: 'the URL must not carry a user name or password' };
  const refused = isIP(host) !== 0 ? blockedReason(host, policy) : nameRefusal(host, policy);
  if (refused) return { refused };
  url.hash = '';
  return { url };
}

/** Every address of a name, in the resolver's order, of the family asked for (0 for both). */
const lookupAll: AddressLookup = (host, options) =>
  dnsLookup(host, { all: true, order: 'verbatim', family: options?.family ?? 0, hints: options?.hints ?? 0 });

/** Why a host with these addresses may not be a target (naming the first bad address), or undefined. */
function addressesRefusal(host: string, addresses: readonly string[], policy: TargetPolicy): string | undefined {
  if (addresses.length === 0) return `${host} does not resolve`;
  for (const address of addresses) {
    const predicate = addressPredicate(address, policy);
    if (predicate) return `${host} resolves to ${address}, which ${predicate}`;
  }
  return undefined;
}

/** Whether a lookup failed because the name has no addresses, rather than because DNS could not answer. */
function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOTFOUND' || code === 'ENODATA';
}

/**
 * Checks a webhook URL and every address its host resolves to: one non-public address is
 * enough to refuse, since the sender might connect to any of them. A DNS failure other than
 * "no such name" (a timeout, a server failure) is thrown, not reported as the URL's fault.
 */
export async function resolveTarget(
  url: URL,
  policy: TargetPolicy,
  lookup: AddressLookup = lookupAll,
): Promise<TargetResolution> {
  const checked = checkTargetUrl(url.href, policy);
  if ('refused' in checked) return checked;
  const host = hostOf(url);
  if (isIP(host) !== 0) return { addresses: [host] };
  let found: LookupAddress[];
  try {
    found = await lookup(host);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    found = [];
  }
  const addresses = found.map((entry) => entry.address);
  const detail = addressesRefusal(host, addresses, policy);
  return detail ? { refused: notAllowed(host), detail } : { addresses };
}

/** The family a lookup asks for as a number: net passes 0, 4 or 6; dns also accepts 'IPv4' and 'IPv6'. */
function familyNumber(family: number | 'IPv4' | 'IPv6' | undefined): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/** The addresses a connection may use, or a rejection: `TargetRefused`, or the lookup's own error. */
async function allowedAddresses(
  hostname: string,
  family: 0 | 4 | 6,
  hints: number | undefined,
  policy: TargetPolicy,
  lookup: AddressLookup,
): Promise<LookupAddress[]> {
  const literal = isIP(hostname);
  const found = literal !== 0 ? [{ address: hostname, family: literal }] : await lookup(hostname, { family, hints });
  const wanted = family === 0 ? found : found.filter((entry) => entry.family === family);
  if (wanted.length === 0) {
    // As dns.lookup fails for a name without addresses: net cannot connect to an empty list.
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  }
  const refused = addressesRefusal(
    hostname,
    wanted.map((entry) => entry.address),
    policy,
  );
  if (refused) throw new TargetRefused(hostname, refused);
  return wanted;
}

/**
 * A `lookup` for http.request/https.request that refuses blocked addresses at connect time (DNS
 * rebinding between the check and the send). Node calls it in two forms: with `{ all: true }`
 * when it may try several addresses (autoSelectFamily, the default since Node 20), expecting
 * `(err, addresses)`, and without, expecting `(err, address, family)`. The connection fails
 * with `TargetRefused` when any address is blocked.
 */
export function guardedLookup(policy: TargetPolicy, lookup: AddressLookup = lookupAll): LookupFunction {
  return (hostname, options, callback) => {
    allowedAddresses(hostname, familyNumber(options.family), options.hints, policy, lookup).then(
      // Answer on a later tick, outside the promise: a throw in net's callback must not become a rejection.
      (addresses) =>
        process.nextTick(() =>
          options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family),
        ),
      (error: NodeJS.ErrnoException) => process.nextTick(() => callback(error, options.all ? [] : '')),
    );
  };
}
