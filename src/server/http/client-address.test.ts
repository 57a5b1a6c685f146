import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { forwardedProtocol, type ProxyTrust, parseProxyTrust, resolveClient } from './client-address';

const trust = (setting: string) => parseProxyTrust(setting) as ProxyTrust;
const client = (setting: string, socket: string, forwardedFor?: string) =>
  resolveClient(parseProxyTrust(setting), socket, forwardedFor);

describe('TRUST_PROXY', () => {
  it('trusts nobody when unset, false or 0, one proxy for true, and n proxies for a number', () => {
    for (const off of [undefined, '', 'false', 'no', '0']) expect(parseProxyTrust(off)).toBeNull();
    expect(trust('true').description).toBe('1 proxy');
    expect(trust('1').description).toBe('1 proxy');
    expect(trust('3').description).toBe('3 proxies');
    expect(trust('10.0.0.0/8, 192.168.1.7,fd00::/8 ,loopback').description).toBe(
      '10.0.0.0/8, 192.168.1.7, fd00::/8, loopback',
    );
  });

  it.each([
    ['10.0.0.0/33', /"10\.0\.0\.0\/33" is not an IP address, a CIDR range/],
    ['proxy.internal', /"proxy\.internal" is not an IP address/],
    ['10.0.0.1,,10.0.0.2', /"" is not an IP address/],
    ['010.0.0.1', /"010\.0\.0\.1" is not an IP address/],
    ['fd00::/129', /is not an IP address/],
    ['::1.2.3.4', /"::1\.2\.3\.4" is not an IP address/],
    ['17', /17 proxies is more than a chain has/],
  ])('stops at start-up with one line for %j', (value, expected) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(expected);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/^Invalid setting TRUST_PROXY: /);
  });
});

describe('the client address', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(client('false', '198.51.100.4', '203.0.113.9').address).toBe('198.51.100.4');
  });

  it('is the rightmost entry with one trusted proxy: entries the client wrote further left are ignored', () => {
    // What a proxy that appends makes of a request whose client wrote its own first entry (issue 20's attack).
    const forged = client('true', '10.0.0.2', '1.2.3.4, 203.0.113.7');
    expect(forged).toEqual({ address: '203.0.113.7', network: '203.0.113.7', trustedHops: 1 });
    expect(client('true', '10.0.0.2', '203.0.113.7').address).toBe('203.0.113.7');
    // Nothing forwarded: the proxy itself is all we know.
    expect(client('true', '10.0.0.2')).toMatchObject({ address: '10.0.0.2', trustedHops: 1 });
  });

  it('walks as many hops as it is told to trust', () => {
    const chain = '6.6.6.6, 203.0.113.7, 10.0.0.9';
    expect(client('1', '10.0.0.2', chain)).toMatchObject({ address: '10.0.0.9', trustedHops: 1 });
    expect(client('2', '10.0.0.2', chain)).toMatchObject({ address: '203.0.113.7', trustedHops: 2 });
    expect(client('3', '10.0.0.2', chain)).toMatchObject({ address: '6.6.6.6', trustedHops: 3 });
    // More hops than the chain has: the leftmost entry (as Express does).
    expect(client('5', '10.0.0.2', chain)).toMatchObject({ address: '6.6.6.6', trustedHops: 4 });
  });

  it('walks through the trusted addresses and CIDR ranges only', () => {
    const list = '10.0.0.0/8, 192.168.1.7';
    expect(client(list, '10.0.0.2', '6.6.6.6, 203.0.113.7, 192.168.1.7, 10.1.2.3')).toMatchObject({
      address: '203.0.113.7',
      trustedHops: 3,
    });
    // Not through a trusted proxy at all: the socket peer is the client and the header is the client's own.
    expect(client(list, '198.51.100.4', '6.6.6.6').address).toBe('198.51.100.4');
    // A trusted address standing left of an untrusted one was written by the client: not walked past.
    expect(client(list, '10.0.0.2', '10.9.9.9, 203.0.113.7').address).toBe('203.0.113.7');
  });

  it('reads IPv6 and IPv4-mapped addresses, canonical, and counts IPv6 by its /64', () => {
    expect(client('false', '::ffff:198.51.100.4')).toEqual({
      address: '198.51.100.4',
      network: '198.51.100.4',
      trustedHops: 0,
    });
    // An IPv4 proxy list matches the IPv4-mapped socket address Node reports on a dual-stack listener.
    expect(client('10.0.0.0/8', '::ffff:10.0.0.2', '203.0.113.7').address).toBe('203.0.113.7');
    expect(client('fd00::/8', 'fd00::1', '2001:DB8:0:0:1:0:0:1')).toEqual({
      address: '2001:db8::1:0:0:1',
      network: '2001:db8::/64',
      trustedHops: 1,
    });
    expect(client('true', '::1', '2001:db8:aa:bb:1234::9').network).toBe('2001:db8:aa:bb::/64');
    expect(client('true', '::1', '::ffff:203.0.113.7').address).toBe('203.0.113.7');
    expect(client('loopback', '::1', 'fe80::1%eth0')).toMatchObject({ address: 'fe80::1', trustedHops: 1 });
  });

  it('stops at a junk entry and takes the proxy that passed it on, never the junk as a key', () => {
    expect(client('true', '10.0.0.2', 'not-an-ip')).toMatchObject({ address: '10.0.0.2', trustedHops: 1 });
    expect(client('true', '10.0.0.2', '203.0.113.7:4711')).toMatchObject({ address: '10.0.0.2' });
    expect(client('true', '10.0.0.2', '[::1]')).toMatchObject({ address: '10.0.0.2' });
    expect(client('true', '10.0.0.2', '010.0.0.1')).toMatchObject({ address: '10.0.0.2' });
    // IPv6 with an IPv4 tail: an address to Node, not to the library that compares proxy ranges.
    expect(client('true', '10.0.0.2', '::1.2.3.4')).toMatchObject({ address: '10.0.0.2' });
    expect(client('true', '10.0.0.2', '64:ff9b::192.0.2.33')).toMatchObject({ address: '10.0.0.2' });
    expect(client('3', '10.0.0.2', '6.6.6.6, <script>, 203.0.113.7')).toMatchObject({
      address: '203.0.113.7',
      trustedHops: 2,
    });
    expect(client('true', '10.0.0.2', ' , ,203.0.113.7,  ')).toMatchObject({ address: '203.0.113.7' });
    expect(client('true', '10.0.0.2', `${'9.'.repeat(5000)}`).address).toBe('10.0.0.2');
    // Whatever the header holds, the client is an address: the proxy's, or one the header names.
    const entry = fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended(), fc.string({ maxLength: 40 }));
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 6 }),
        fc.constantFrom('true', '3', '10.0.0.0/8'),
        (entries, setting) => {
          const found = client(setting, '10.0.0.2', entries.join(', '));
          const named = entries.map((text) => text.trim()).filter((text) => isIP(text) !== 0);
          expect(isIP(found.address)).not.toBe(0);
          expect(
            found.address === '10.0.0.2' ||
              named.some((text) => client('false', text).address === found.address),
          ).toBe(true);
        },
      ),
      { seed: 20, numRuns: 500 },
    );
    // No socket address at all (app.request in tests): one shared key, never a value the client chose.
    expect(resolveClient(trust('true'), undefined, '203.0.113.7').address).toBe('unknown');
  });
});

describe('X-Forwarded-Proto', () => {
  it('is believed only through a trusted proxy, at the hop of the client', () => {
    expect(forwardedProtocol('https', 0)).toBeUndefined();
    expect(forwardedProtocol('https', 1)).toBe('https');
    expect(forwardedProtocol('HTTPS', 1)).toBe('https');
    // Appended by each proxy: the client's own entry (left) is passed over.
    expect(forwardedProtocol('https, http', 1)).toBe('http');
    expect(forwardedProtocol('https, http', 2)).toBe('https');
    // One proxy setting a single value for a chain of two.
    expect(forwardedProtocol('https', 2)).toBe('https');
    expect(forwardedProtocol('gopher', 1)).toBeUndefined();
    expect(forwardedProtocol(undefined, 1)).toBeUndefined();
  });
});
