/**
 * Which addresses a webhook may be sent to (SSRF). A merchant chooses the
 * URL, so without a rule anyone with a secret key could make our servers
 * POST to our own network: the database's admin port, a cloud metadata
 * service. In production an endpoint must be https and every address its
 * host resolves to must be global unicast (isPublicAddress); the check runs at creation and
 * again at each delivery, in the request's own DNS lookup, so the address
 * checked is the address connected to (a host that resolves to a public
 * address at creation and to 127.0.0.1 later, DNS rebinding, is refused).
 * Development and tests send to http and loopback receivers.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { WebhookAddressPolicy } from '../config';

export type UrlRefusal = Failure<'url_not_allowed'>;

/** Resolves a host name to every address, as dns.lookup with `all: true` does. */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/** IPv6's global unicast space (RFC 4291 2.4): every other IPv6 address is refused, whatever it embeds. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether a webhook may be sent to an address: a list of what is allowed, not
 * of what is refused (docs/webhooks.md, "Addresses").
 *
 * - IPv4: an address ipaddr.js classifies as plain `unicast`, that is in none
 *   of the ranges it names (loopback, private, linkLocal, carrierGradeNat,
 *   unspecified, broadcast, multicast, reserved, as112, amt). A range added
 *   to the library later is refused, not let through.
 * - IPv6: inside 2000::/3 and `unicast` there, so none of 2000::/3's special
 *   blocks either (documentation, benchmarking, ORCHID, AMT, AS112).
 * - No IPv6 form that carries an IPv4 address, whatever that address: not
 *   IPv4-compatible `::a.b.c.d` (::/96, deprecated: `[::127.0.0.1]` and
 *   `[::a9fe:a9fe]` are loopback and the metadata service to some stacks),
 *   IPv4-mapped `::ffff:a.b.c.d` (write the IPv4 address itself), NAT64
 *   `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`:
 *   each leads to an IPv4 host through a translator or relay whose reach is not
 *   ours to judge. The first three lie outside 2000::/3; 6to4 and Teredo are
 *   named ranges inside it.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.match(GLOBAL_UNICAST_V6) && parsed.range() === 'unicast';
}

const refusal = (message: string): UrlRefusal => ({ code: 'url_not_allowed', message });

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** The check at creation: scheme, then (under `public`) every address the host resolves to. */
export async function checkEndpointUrl(url: string, policy: WebhookAddressPolicy, resolve: Resolve = systemResolve): Promise<Result<void, UrlRefusal>> {
  if (policy === 'any') return ok(undefined);
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return err(refusal('url: must be https'));
  const host = hostOf(parsed);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await resolve(host)).map((entry) => entry.address);
  } catch {
    return err(refusal(`url: the host ${host} does not resolve`));
  }
  const forbidden = addresses.find((address) => !isPublicAddress(address));
  if (addresses.length === 0 || forbidden !== undefined) return err(refusal(`url: ${host} resolves to ${forbidden ?? 'no address'}, which is not a public address`));
  return ok(undefined);
}

/**
 * The `lookup` of a delivery's request under `public`: resolves, refuses if
 * any address is not public, and hands the request the addresses it checked.
 * (An IP literal is never looked up by Node: the worker checks it with checkEndpointUrl first.)
 */
export function checkedLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const forbidden = addresses.find((entry) => !isPublicAddress(entry.address));
        if (addresses.length === 0 || forbidden) {
          const error = Object.assign(new Error(`${hostname} resolves to ${forbidden?.address ?? 'no address'}, which is not a public address`), { code: 'ADDRESS_NOT_ALLOWED' });
          return callback(error, '', 0);
        }
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, wanted);
        const first = wanted[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no IPv${options.family} address`), { code: 'ENOTFOUND' }), '', 0);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
