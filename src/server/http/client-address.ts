import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';

/**
 * The client's address behind reverse proxies (decision 0023). `X-Forwarded-For` is a list each proxy
 * appends the address it was reached from to, so only its right end is written by proxies we run; what
 * stands further left was written by whoever sent the request, the client included. The client is
 * therefore the rightmost address that is not one of our proxies, found as Express and Fastify find it
 * (with `proxy-addr`): walking from the socket's peer leftwards while each address is a trusted proxy.
 */
export interface ProxyTrust {
  /** The setting as understood, for the start-up log: "1 proxy", "2 proxies", "10.0.0.0/8, loopback". */
  readonly description: string;
  /** Whether the address `hop` steps from this server (0: the socket's peer) is a proxy of ours. */
  readonly trusts: (address: string, hop: number) => boolean;
}

/** Named ranges `proxy-addr` knows, as Express's `trust proxy` accepts them. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** A chain longer than this is not a deployment; a larger number is a typo. */
const MAX_HOPS = 16;

/**
 * `TRUST_PROXY` as config.ts parses it once: unset/`false`/`0` trusts nobody (null); `true` one proxy;
 * a whole number that many; otherwise a comma list of addresses, CIDR ranges and range names.
 * Throws an Error whose message is the start-up line for a value that is none of these.
 */
export function parseProxyTrust(text: string | undefined): ProxyTrust | null {
  const value = (text ?? '').trim().toLowerCase();
  if (['', 'false', 'no', '0'].includes(value)) return null;
  if (value === 'true' || value === 'yes') return hops(1);
  if (/^\d+$/.test(value)) {
    const count = Number(value);
    if (count > MAX_HOPS) throw new Error(`${count} proxies is more than a chain has (at most ${MAX_HOPS}).`);
    return hops(count);
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyEntry(entry))
      throw new Error(
        `"${entry}" is not an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or one of loopback, linklocal, ` +
          'uniquelocal. Use true (one proxy), a number of proxies, or a comma list of those.',
      );
  }
  const compiled = proxyAddr.compile(entries);
  return { description: entries.join(', '), trusts: (address, hop) => compiled(address, hop) };
}

function hops(count: number): ProxyTrust {
  return {
    description: `${count} prox${count === 1 ? 'y' : 'ies'}`,
    trusts: (_address, hop) => hop < count,
  };
}

/**
 * An IP address as both Node (strict: no octal, no port) and ipaddr.js (what proxy-addr compares with)
 * read it; IPv6 with an IPv4 tail (`::1.2.3.4`) is valid to Node only, so it is not one here.
 */
const isAddress = (text: string) => isIP(text) !== 0 && ipaddr.isValid(text.split('%')[0] ?? '');

function isProxyEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isAddress(address) ? isIP(address) : 0;
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export interface Client {
  /** The client's address, canonical (an IPv4-mapped IPv6 address as IPv4): the request log's. */
  address: string;
  /**
   * What limits count by: the address for IPv4, its /64 network for IPv6 (one subscriber's allocation, in
   * which anyone can pick a new address per request).
   */
  network: string;
  /**
   * How many addresses of the chain, the socket's peer first, are proxies of ours (0: the request came
   * straight from the client). When every address is trusted, the client is the leftmost one.
   */
  trustedHops: number;
}

/**
 * The client of a request from the socket's peer and its `X-Forwarded-For`. An entry that is not an IP
 * address (a port, junk, an empty field) ends the walk: the client is then the last address before it,
 * the proxy that passed it on, so a junk entry can never become a fresh key of its own.
 */
export function resolveClient(
  trust: ProxyTrust | null,
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
): Client {
  const peer = socketAddress && isAddress(socketAddress) ? socketAddress : undefined;
  if (!peer) return { address: 'unknown', network: 'unknown', trustedHops: 0 };
  if (!trust) return clientAt(peer, 0);
  const trusted = (address: string, hop: number) => isAddress(address) && trust.trusts(address, hop);
  const request = { headers: { 'x-forwarded-for': forwardedFor ?? '' }, socket: { remoteAddress: peer } };
  // The peer, then each trusted proxy's entry, ending at the first address that is not one (or the left end).
  const chain = proxyAddr.all(request as unknown as Parameters<typeof proxyAddr.all>[0], trusted);
  const last = chain.length - 1;
  const lastAddress = chain[last] as string;
  const trustedHops = trusted(lastAddress, last) ? chain.length : last;
  return clientAt(isAddress(lastAddress) ? lastAddress : (chain[last - 1] as string), trustedHops);
}

function clientAt(address: string, trustedHops: number): Client {
  const parsed = ipaddr.process(address.split('%')[0] ?? address);
  if (parsed.kind() === 'ipv4')
    return { address: parsed.toString(), network: parsed.toString(), trustedHops };
  const network = new ipaddr.IPv6([...(parsed as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]);
  return { address: parsed.toString(), network: `${network.toString()}/64`, trustedHops };
}

/**
 * The scheme the client used, from `X-Forwarded-Proto`, when the request came through our proxies:
 * each proxy appends the scheme it was reached with (or one proxy sets a single value), so the entry
 * `trustedHops` from the right is the one the outermost of ours wrote; entries further left are the
 * client's. Undefined when no proxy of ours passed the request on, or the value is neither scheme.
 */
export function forwardedProtocol(
  forwardedProto: string | undefined,
  trustedHops: number,
): 'http' | 'https' | undefined {
  if (trustedHops === 0 || !forwardedProto) return undefined;
  const entries = forwardedProto.split(',').map((entry) => entry.trim().toLowerCase());
  const entry = entries[Math.max(0, entries.length - trustedHops)];
  return entry === 'http' || entry === 'https' ? entry : undefined;
}

/** The per-request values this module sets (part of AppEnv). */
export interface ClientVariables {
  clientAddress: string;
  clientNetwork: string;
  /** The scheme the client used as our proxies report it; undefined when no trusted proxy said. */
  forwardedProtocol: 'http' | 'https' | undefined;
}

/**
 * Runs first on every request (API, sandbox and pages), so the request log, every limit and the
 * sandbox's own limits see the same client.
 */
export function clientAddressMiddleware(
  trust: ProxyTrust | null,
): MiddlewareHandler<{ Variables: ClientVariables }> {
  return async (c, next) => {
    const client = resolveClient(trust, socketAddress(c), c.req.header('x-forwarded-for'));
    c.set('clientAddress', client.address);
    c.set('clientNetwork', client.network);
    c.set('forwardedProtocol', forwardedProtocol(c.req.header('x-forwarded-proto'), client.trustedHops));
    await next();
  };
}

function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // app.request() in tests has no socket
  }
}
