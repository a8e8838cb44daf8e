/**
 * The SSRF guard for webhook targets: URLs refused by their text, addresses refused by range,
 * names refused by what they resolve to, and connections refused at connect time. Nothing here
 * touches DNS: `node:dns/promises` is replaced by a lookup that fails the test if it is called
 * unasked, and every other lookup is injected.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { ADDRCONFIG } from 'node:dns';
import { createServer, request, type RequestOptions, type Server } from 'node:http';
import type { AddressInfo, LookupFunction, TcpNetConnectOpts } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  blockedReason,
  checkTargetUrl,
  guardedLookup,
  notAllowed,
  resolveTarget,
  TargetRefused,
  type AddressLookup,
  type TargetPolicy,
} from '../../../functions/src/webhooks/webhook-targets.ts';

const systemLookup = vi.hoisted(() =>
  vi.fn(async (host: string, _options?: unknown): Promise<LookupAddress[]> => {
    throw new Error(`a test resolved ${host} for real`);
  }),
);
vi.mock('node:dns/promises', () => ({ lookup: systemLookup }));

const production: TargetPolicy = { allowLoopback: false };
const emulators: TargetPolicy = { allowLoopback: true };

/** A lookup that answers every name with these addresses (family from the address's form). */
function answering(...addresses: string[]): AddressLookup & ReturnType<typeof vi.fn> {
  return vi.fn(async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
}

beforeEach(() => {
  systemLookup.mockClear();
});

describe('checkTargetUrl', () => {
  const accepted: [policy: string, raw: string, href: string][] = [
    ['production', 'https://hooks.example.com/evident', 'https://hooks.example.com/evident'],
    [
      'production',
      'https://hooks.example.com:8443/in?source=evident#section',
      'https://hooks.example.com:8443/in?source=evident',
    ],
    ['production', 'HTTPS://Hooks.Example.COM/In', 'https://hooks.example.com/In'],
    ['production', 'https://8.8.8.8/hook', 'https://8.8.8.8/hook'],
    ['production', 'https://[2606:4700:4700::1111]/hook', 'https://[2606:4700:4700::1111]/hook'],
    ['production', 'https://[::ffff:8.8.8.8]/hook', 'https://[::ffff:808:808]/hook'],
    ['production', `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`, ''],
    ['emulators', 'http://127.0.0.1:8080/hook', 'http://127.0.0.1:8080/hook'],
    ['emulators', 'http://127.1.2.3:8080/hook', 'http://127.1.2.3:8080/hook'],
    ['emulators', 'http://localhost:5001/hook#x', 'http://localhost:5001/hook'],
    ['emulators', 'http://[::1]:9000/hook', 'http://[::1]:9000/hook'],
    ['emulators', 'https://localhost/hook', 'https://localhost/hook'],
    ['emulators', 'https://hooks.example.com/evident', 'https://hooks.example.com/evident'],
  ];

  it.each(accepted)('accepts (%s) %s', (policy, raw, href) => {
    const checked = checkTargetUrl(raw, policy === 'production' ? production : emulators);
    expect(checked).toEqual({ url: expect.any(URL) });
    if ('url' in checked) expect(checked.url.href).toBe(href || raw);
  });

  const refused: [policy: string, raw: string, refusal: string][] = [
    [
      'production',
      `https://hooks.example.com/${'a'.repeat(2049 - 'https://hooks.example.com/'.length)}`,
      'the URL is longer than 2048 characters',
    ],
    ['production', 'hooks.example.com/evident', 'the URL is not a valid absolute URL'],
    ['production', '/evident', 'the URL is not a valid absolute URL'],
    ['production', 'https://', 'the URL is not a valid absolute URL'],
    ['production', 'http://hooks.example.com/evident', 'the URL must use https'],
    ['production', 'ftp://hooks.example.com/evident', 'the URL must use https'],
    ['production', 'file:///etc/passwd', 'the URL must use https'],
    ['production', 'http://127.0.0.1:8080/hook', 'the URL must use https'],
    ['production', 'http://localhost:5001/hook', 'the URL must use https'],
    ['production', 'https://user:secret@hooks.example.com/', 'the URL must not carry a user name or password'],
    ['production', 'https://user@hooks.example.com/', 'the URL must not carry a user name or password'],
    ['production', 'https://127.0.0.1/hook', '127.0.0.1 is a loopback address'],
    ['production', 'https://0x7f.1/hook', '127.0.0.1 is a loopback address'],
    ['production', 'https://2130706433/hook', '127.0.0.1 is a loopback address'],
    ['production', 'https://[::1]/hook', '::1 is a loopback address'],
    ['production', 'https://[0:0:0:0:0:0:0:1]/hook', '::1 is a loopback address'],
    ['production', 'https://localhost/hook', 'localhost is a loopback name'],
    ['production', 'https://localhost./hook', 'localhost. is a loopback name'],
    ['production', 'https://10.1.2.3/hook', '10.1.2.3 is a private address'],
    ['production', 'https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address (cloud metadata)'],
    [
      'production',
      'https://[::ffff:169.254.169.254]/',
      '::ffff:a9fe:a9fe maps to 169.254.169.254, a link-local address (cloud metadata)',
    ],
    ['production', 'https://[fd00:ec2::254]/', 'fd00:ec2::254 is a unique local address (AWS metadata)'],
    [
      'production',
      'https://metadata.google.internal/computeMetadata/v1/',
      'metadata.google.internal is the cloud metadata server',
    ],
    ['production', 'https://METADATA.google.internal./', 'metadata.google.internal. is the cloud metadata server'],
    ['production', 'https://metadata/computeMetadata/v1/', 'metadata is the cloud metadata server'],
    ['production', 'https://db.corp.internal/', 'db.corp.internal is a private-use name (.internal)'],
    ['production', 'https://printer.local/', 'printer.local is a multicast DNS name (.local)'],
    ['production', 'https://app.localhost/', 'app.localhost is a loopback name (.localhost)'],
    ['production', 'https://router.home.arpa/', 'router.home.arpa is a home network name (.home.arpa)'],
    ['production', 'https://intranet/hook', 'intranet is not a fully qualified name'],
    ['emulators', 'http://hooks.example.com/evident', 'the URL must use https'],
    ['emulators', 'http://10.0.0.1/hook', 'the URL must use https'],
    ['emulators', 'http://app.localhost:5001/hook', 'the URL must use https'],
    ['emulators', 'http://user:secret@localhost:5001/hook', 'the URL must not carry a user name or password'],
    ['emulators', 'https://10.0.0.1/hook', '10.0.0.1 is a private address'],
    ['emulators', 'https://169.254.169.254/', '169.254.169.254 is a link-local address (cloud metadata)'],
    ['emulators', 'https://metadata.google.internal/', 'metadata.google.internal is the cloud metadata server'],
    ['emulators', 'https://app.localhost/', 'app.localhost is a loopback name (.localhost)'],
  ];

  it.each(refused)('refuses (%s) %s', (policy, raw, refusal) => {
    expect(checkTargetUrl(raw, policy === 'production' ? production : emulators)).toEqual({ refused: refusal });
  });
});

describe('blockedReason', () => {
  // Each range with addresses at its edges inside, and the neighbours just outside it (undefined: allowed).
  const ipv4: [address: string, reason: string | undefined][] = [
    ['0.0.0.0', '0.0.0.0 is an unspecified (this-network) address'],
    ['0.255.255.255', '0.255.255.255 is an unspecified (this-network) address'],
    ['1.0.0.0', undefined],
    ['9.255.255.255', undefined],
    ['10.0.0.0', '10.0.0.0 is a private address'],
    ['10.255.255.255', '10.255.255.255 is a private address'],
    ['11.0.0.0', undefined],
    ['100.63.255.255', undefined],
    ['100.64.0.0', '100.64.0.0 is a carrier-grade NAT address'],
    ['100.127.255.255', '100.127.255.255 is a carrier-grade NAT address'],
    ['100.128.0.0', undefined],
    ['100.100.100.200', '100.100.100.200 is a carrier-grade NAT address (Alibaba Cloud metadata)'],
    ['126.255.255.255', undefined],
    ['127.0.0.1', '127.0.0.1 is a loopback address'],
    ['127.255.255.255', '127.255.255.255 is a loopback address'],
    ['128.0.0.0', undefined],
    ['169.253.255.255', undefined],
    ['169.254.0.1', '169.254.0.1 is a link-local address'],
    ['169.254.169.254', '169.254.169.254 is a link-local address (cloud metadata)'],
    ['169.254.169.253', '169.254.169.253 is a link-local address'],
    ['169.255.0.0', undefined],
    ['172.15.255.255', undefined],
    ['172.16.0.0', '172.16.0.0 is a private address'],
    ['172.31.255.255', '172.31.255.255 is a private address'],
    ['172.32.0.0', undefined],
    ['191.255.255.255', undefined],
    ['192.0.0.0', '192.0.0.0 is an IETF protocol assignment address'],
    ['192.0.0.255', '192.0.0.255 is an IETF protocol assignment address'],
    ['192.0.1.0', undefined],
    ['192.0.2.0', '192.0.2.0 is a documentation address'],
    ['192.0.2.255', '192.0.2.255 is a documentation address'],
    ['192.0.3.0', undefined],
    ['192.88.99.1', '192.88.99.1 is a 6to4 relay address'],
    ['192.88.100.0', undefined],
    ['192.167.255.255', undefined],
    ['192.168.0.0', '192.168.0.0 is a private address'],
    ['192.168.255.255', '192.168.255.255 is a private address'],
    ['192.169.0.0', undefined],
    ['198.17.255.255', undefined],
    ['198.18.0.0', '198.18.0.0 is a benchmarking address'],
    ['198.19.255.255', '198.19.255.255 is a benchmarking address'],
    ['198.20.0.0', undefined],
    ['198.51.99.255', undefined],
    ['198.51.100.0', '198.51.100.0 is a documentation address'],
    ['198.51.100.255', '198.51.100.255 is a documentation address'],
    ['198.51.101.0', undefined],
    ['203.0.112.255', undefined],
    ['203.0.113.0', '203.0.113.0 is a documentation address'],
    ['203.0.113.255', '203.0.113.255 is a documentation address'],
    ['203.0.114.0', undefined],
    ['223.255.255.255', undefined],
    ['224.0.0.0', '224.0.0.0 is a multicast address'],
    ['239.255.255.255', '239.255.255.255 is a multicast address'],
    ['240.0.0.0', '240.0.0.0 is a reserved address'],
    ['255.255.255.254', '255.255.255.254 is a reserved address'],
    ['255.255.255.255', '255.255.255.255 is the broadcast address'],
    ['8.8.8.8', undefined],
  ];

  it.each(ipv4)('IPv4 %s → %s', (address, reason) => {
    expect(blockedReason(address, production)).toBe(reason);
  });

  const ipv6: [address: string, reason: string | undefined][] = [
    ['::', ':: is an unspecified address'],
    ['::1', '::1 is a loopback address'],
    ['::2', '::2 is a reserved address'],
    ['fbff:ffff::1', 'fbff:ffff::1 is a reserved address'],
    ['fc00::', 'fc00:: is a unique local address'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff is a unique local address'],
    ['fd00:ec2::254', 'fd00:ec2::254 is a unique local address (AWS metadata)'],
    ['fd00:ec2::253', 'fd00:ec2::253 is a unique local address'],
    ['fe00::1', 'fe00::1 is a reserved address'],
    ['fe80::', 'fe80:: is a link-local address'],
    ['febf:ffff::1', 'febf:ffff::1 is a link-local address'],
    ['fe80::1%eth0', 'fe80::1%eth0 is a link-local address'],
    ['fec0::1', 'fec0::1 is a site-local address'],
    ['ff00::', 'ff00:: is a multicast address'],
    ['ff02::1', 'ff02::1 is a multicast address'],
    ['2001:db7:ffff:ffff::1', undefined],
    ['2001:db8::', '2001:db8:: is a documentation address'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff is a documentation address'],
    ['2001:db9::', undefined],
    ['3fff::1', '3fff::1 is a documentation address'],
    ['2001::1', '2001::1 is a Teredo tunnelling address'],
    ['100::1', '100::1 is a discard-only address'],
    ['64:ff9b:1::1', '64:ff9b:1::1 is a local-use NAT64 address'],
    ['2606:4700:4700::1111', undefined],
    ['2a00:1450:4001:82a::200e', undefined],
  ];

  it.each(ipv6)('IPv6 %s → %s', (address, reason) => {
    expect(blockedReason(address, production)).toBe(reason);
  });

  const embedded: [address: string, reason: string | undefined][] = [
    ['::ffff:10.0.0.1', '::ffff:10.0.0.1 maps to 10.0.0.1, a private address'],
    ['::ffff:a00:1', '::ffff:a00:1 maps to 10.0.0.1, a private address'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1 maps to 127.0.0.1, a loopback address'],
    ['::ffff:169.254.169.254', '::ffff:169.254.169.254 maps to 169.254.169.254, a link-local address (cloud metadata)'],
    ['0:0:0:0:0:ffff:c0a8:0101', '0:0:0:0:0:ffff:c0a8:0101 maps to 192.168.1.1, a private address'],
    ['::ffff:8.8.8.8', undefined],
    ['::ffff:808:808', undefined],
    ['64:ff9b::10.0.0.1', '64:ff9b::10.0.0.1 translates (NAT64) to 10.0.0.1, a private address'],
    ['64:ff9b::a9fe:a9fe', '64:ff9b::a9fe:a9fe translates (NAT64) to 169.254.169.254, a link-local address (cloud metadata)'],
    ['64:ff9b::808:808', undefined],
    ['64:ff9b::1:0:0', '64:ff9b::1:0:0 is a reserved address'],
    ['2002:a00:1::', '2002:a00:1:: tunnels (6to4) to 10.0.0.1, a private address'],
    ['2002:808:808::1', undefined],
  ];

  it.each(embedded)('IPv6 carrying IPv4 %s → %s', (address, reason) => {
    expect(blockedReason(address, production)).toBe(reason);
  });

  it.each(['', 'localhost', 'hooks.example.com', '1.2.3', '010.0.0.1', '256.0.0.1', '::g', '1::2::3', ' 8.8.8.8'])(
    'refuses %j, which is not an IP address',
    (text) => {
      expect(blockedReason(text, production)).toBe(`${text} is not an IP address`);
    },
  );

  it.each(['127.0.0.1', '127.255.255.255', '::1', '::ffff:127.0.0.1', '64:ff9b::7f00:1'])(
    'allows the loopback address %s in the emulators only',
    (address) => {
      expect(blockedReason(address, production)).toMatch(/a loopback address$/);
      expect(blockedReason(address, emulators)).toBeUndefined();
    },
  );

  it('keeps refusing every other range in the emulators', () => {
    expect(blockedReason('10.0.0.1', emulators)).toBe('10.0.0.1 is a private address');
    expect(blockedReason('169.254.169.254', emulators)).toBe('169.254.169.254 is a link-local address (cloud metadata)');
    expect(blockedReason('::', emulators)).toBe(':: is an unspecified address');
    expect(blockedReason('0.0.0.0', emulators)).toBe('0.0.0.0 is an unspecified (this-network) address');
  });
});

describe('resolveTarget', () => {
  const target = new URL('https://hooks.example.com/evident');

  it('refuses a name with a public and a private address, naming the private one', async () => {
    const lookup = answering('93.184.215.14', '10.0.0.7');
    expect(await resolveTarget(target, production, lookup)).toEqual({
      refused: notAllowed('hooks.example.com'),
      detail: 'hooks.example.com resolves to 10.0.0.7, which is a private address',
    });
    expect(lookup).toHaveBeenCalledWith('hooks.example.com');
  });

  it('returns every address of a name whose addresses are all public', async () => {
    const lookup = answering('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c');
    expect(await resolveTarget(target, production, lookup)).toEqual({
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
  });

  it('refuses a name whose IPv6 address maps to a private IPv4 address', async () => {
    expect(await resolveTarget(target, production, answering('93.184.215.14', '::ffff:192.168.0.1'))).toEqual({
      refused: notAllowed('hooks.example.com'),
      detail: 'hooks.example.com resolves to ::ffff:192.168.0.1, which maps to 192.168.0.1, a private address',
    });
  });

  it('refuses a name that resolves to the metadata server', async () => {
    expect(await resolveTarget(target, production, answering('169.254.169.254'))).toEqual({
      refused: notAllowed('hooks.example.com'),
      detail: 'hooks.example.com resolves to 169.254.169.254, which is a link-local address (cloud metadata)',
    });
  });

  it('refuses a name without addresses, whether the lookup answers nothing or ENOTFOUND', async () => {
    const missing = new URL('https://example.invalid/hook');
    expect(await resolveTarget(missing, production, answering())).toEqual({
      refused: notAllowed('example.invalid'),
      detail: 'example.invalid does not resolve',
    });
    const notFound = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND example.invalid'), { code: 'ENOTFOUND' });
    };
    expect(await resolveTarget(missing, production, notFound)).toEqual({
      refused: notAllowed('example.invalid'),
      detail: 'example.invalid does not resolve',
    });
  });

  it('throws a DNS failure that says nothing about the name (EAI_AGAIN)', async () => {
    const unavailable = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN hooks.example.com'), { code: 'EAI_AGAIN' });
    };
    await expect(resolveTarget(target, production, unavailable)).rejects.toMatchObject({ code: 'EAI_AGAIN' });
  });

  it('answers an IP-literal host without a lookup', async () => {
    const lookup = answering('10.0.0.1');
    expect(await resolveTarget(new URL('https://8.8.8.8/hook'), production, lookup)).toEqual({ addresses: ['8.8.8.8'] });
    expect(await resolveTarget(new URL('https://[2606:4700::1]/hook'), production, lookup)).toEqual({
      addresses: ['2606:4700::1'],
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('refuses a URL by its text before resolving anything', async () => {
    const lookup = answering('93.184.215.14');
    expect(await resolveTarget(new URL('https://metadata.google.internal/'), production, lookup)).toEqual({
      refused: 'metadata.google.internal is the cloud metadata server',
    });
    expect(await resolveTarget(new URL('http://hooks.example.com/'), production, lookup)).toEqual({
      refused: 'the URL must use https',
    });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('allows a name resolving to loopback in the emulators only', async () => {
    const local = new URL('http://localhost:5001/hook');
    expect(await resolveTarget(local, emulators, answering('127.0.0.1', '::1'))).toEqual({ addresses: ['127.0.0.1', '::1'] });
    expect(await resolveTarget(new URL('https://hooks.example.com/'), production, answering('127.0.0.1'))).toEqual({
      refused: notAllowed('hooks.example.com'),
      detail: 'hooks.example.com resolves to 127.0.0.1, which is a loopback address',
    });
  });

  it('by default asks dns.lookup for every address, in the resolver order', async () => {
    systemLookup.mockResolvedValueOnce([{ address: '93.184.215.14', family: 4 }]);
    expect(await resolveTarget(target, production)).toEqual({ addresses: ['93.184.215.14'] });
    expect(systemLookup).toHaveBeenCalledWith('hooks.example.com', { all: true, order: 'verbatim', family: 0, hints: 0 });
  });
});

/** Calls a lookup as net does and waits for its one answer. */
function callLookup(
  lookup: LookupFunction,
  hostname: string,
  options: LookupOptions,
): Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family: number | undefined }> {
  return new Promise((resolve) => {
    let calls = 0;
    let synchronous = true;
    lookup(hostname, options, (error, address, family) => {
      calls += 1;
      expect(calls).toBe(1);
      expect(synchronous).toBe(false);
      resolve({ error, address, family });
    });
    synchronous = false;
  });
}

describe('guardedLookup', () => {
  // As net.connect calls it: with { all: true } under autoSelectFamily (Node's default), else without.
  const all: LookupOptions = { family: 0, hints: ADDRCONFIG, all: true };
  const one: LookupOptions = { family: 0, hints: ADDRCONFIG };

  it.each([
    ['{ all: true }', all],
    ['single-address', one],
  ])('refuses a rebinding to 10.0.0.1 with TargetRefused (%s form)', async (_form, options) => {
    const { error } = await callLookup(guardedLookup(production, answering('10.0.0.1')), 'hooks.example.com', options);
    expect(error).toBeInstanceOf(TargetRefused);
    expect(error).toMatchObject({
      code: 'ERR_WEBHOOK_TARGET_REFUSED',
      message: 'hooks.example.com is not an allowed target (it must resolve only to public addresses)',
      detail: 'hooks.example.com resolves to 10.0.0.1, which is a private address',
    });
  });

  it('refuses the whole answer when one of several addresses is private', async () => {
    const lookup = guardedLookup(production, answering('93.184.215.14', '10.0.0.1'));
    const { error } = await callLookup(lookup, 'hooks.example.com', all);
    expect((error as TargetRefused | null)?.detail).toBe('hooks.example.com resolves to 10.0.0.1, which is a private address');
  });

  it('passes public addresses through in the { all: true } form', async () => {
    const lookup = guardedLookup(production, answering('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'));
    expect(await callLookup(lookup, 'hooks.example.com', all)).toEqual({
      error: null,
      address: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
      family: undefined,
    });
  });

  it('passes the first public address and its family through in the single-address form', async () => {
    const lookup = guardedLookup(production, answering('93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'));
    expect(await callLookup(lookup, 'hooks.example.com', one)).toEqual({ error: null, address: '93.184.215.14', family: 4 });
    expect(await callLookup(lookup, 'hooks.example.com', { family: 6 })).toEqual({
      error: null,
      address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
      family: 6,
    });
  });

  it('passes the family and hints net asks for on to the lookup', async () => {
    const lookup = answering('93.184.215.14');
    await callLookup(guardedLookup(production, lookup), 'hooks.example.com', { family: 4, hints: ADDRCONFIG });
    expect(lookup).toHaveBeenCalledWith('hooks.example.com', { family: 4, hints: ADDRCONFIG });
  });

  it('passes a DNS error through unchanged', async () => {
    const failure = Object.assign(new Error('getaddrinfo EAI_AGAIN hooks.example.com'), { code: 'EAI_AGAIN' });
    const lookup = guardedLookup(production, async () => {
      throw failure;
    });
    expect((await callLookup(lookup, 'hooks.example.com', all)).error).toBe(failure);
  });

  it('fails like dns.lookup (ENOTFOUND) when no address of the family asked for is left', async () => {
    const lookup = guardedLookup(production, answering('93.184.215.14'));
    const { error } = await callLookup(lookup, 'hooks.example.com', { family: 6, all: true });
    expect(error).toMatchObject({ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND hooks.example.com' });
  });

  it('checks an IP-literal host name without a lookup', async () => {
    const lookup = answering('93.184.215.14');
    const { error } = await callLookup(guardedLookup(production, lookup), '169.254.169.254', one);
    expect((error as TargetRefused | null)?.detail).toBe(
      '169.254.169.254 resolves to 169.254.169.254, which is a link-local address (cloud metadata)',
    );
    expect(lookup).not.toHaveBeenCalled();
  });

  it('uses dns.lookup by default, with the options net passes', async () => {
    systemLookup.mockResolvedValueOnce([{ address: '10.9.8.7', family: 4 }]);
    const { error } = await callLookup(guardedLookup(production), 'hooks.example.com', all);
    expect((error as TargetRefused | null)?.detail).toBe('hooks.example.com resolves to 10.9.8.7, which is a private address');
    expect(systemLookup).toHaveBeenCalledWith('hooks.example.com', {
      all: true,
      order: 'verbatim',
      family: 0,
      hints: ADDRCONFIG,
    });
  });
});

describe('guardedLookup in a real http.request', () => {
  let server: Server;
  let port: number;
  let received = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      received += 1;
      res.end('delivered');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** Which form net called the lookup in, per request: `{ all: true }` or single-address. */
  const forms: string[] = [];

  /** POSTs to http://{hostname}:{port}/ through a guarded lookup that answers 127.0.0.1. */
  function post(hostname: string, policy: TargetPolicy, autoSelectFamily: boolean): Promise<string> {
    const guarded = guardedLookup(policy, answering('127.0.0.1'));
    const lookup: LookupFunction = (name, options, callback) => {
      forms.push(options.all ? 'all' : 'single');
      guarded(name, options, callback);
    };
    // http.request hands its options to net.connect, autoSelectFamily included, though its type does not list it.
    const options: RequestOptions & Pick<TcpNetConnectOpts, 'autoSelectFamily'> = {
      hostname,
      port,
      method: 'POST',
      path: '/',
      agent: false,
      autoSelectFamily,
      lookup,
    };
    return new Promise((resolve, reject) => {
      const req = request(options, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      });
      req.on('error', reject);
      req.end('{}');
    });
  }

  const cases: [form: string, autoSelectFamily: boolean][] = [
    ['all', true],
    ['single', false],
  ];

  it.each(cases)('delivers to localhost when loopback is allowed (%s form)', async (form, autoSelectFamily) => {
    forms.length = 0;
    expect(await post('localhost', emulators, autoSelectFamily)).toBe('200 delivered');
    expect(forms).toEqual([form]);
  });

  it.each(cases)(
    'fails with TargetRefused, sending nothing, when loopback is not allowed (%s form)',
    async (form, autoSelectFamily) => {
      forms.length = 0;
      const before = received;
      const failure = post('localhost', production, autoSelectFamily);
      await expect(failure).rejects.toBeInstanceOf(TargetRefused);
      await expect(failure).rejects.toMatchObject({
        message: notAllowed('localhost'),
        detail: 'localhost resolves to 127.0.0.1, which is a loopback address',
      });
      expect(received).toBe(before);
      expect(forms).toEqual([form]);
    },
  );

  it('is not consulted for an IP-literal host, which is why checkTargetUrl refuses literals itself', async () => {
    forms.length = 0;
    expect(await post('127.0.0.1', production, true)).toBe('200 delivered');
    expect(forms).toEqual([]);
    expect(checkTargetUrl(`https://127.0.0.1:${port}/`, production)).toEqual({ refused: '127.0.0.1 is a loopback address' });
  });
});
