import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard of every outbound request to an address someone else chose: Domain
 * Intelligence's RDAP (whose responses carry links we follow, `related`), WHOIS and delivery
 * targets, the platform's app callbacks. A hostile or compromised server, or a customer's
 * webhook URL, could point us at our own network: only `https` to public unicast addresses is
 * allowed. The insecure mode (simulator, tests, demo) also allows `http` and loopback, never
 * private, link-local or metadata ranges.
 */
export interface AddressPolicy {
  allowInsecure: boolean;
}

export class BlockedAddressError extends Error {
  /** The code Domain Intelligence's RDAP and WHOIS clients have always recognised the refusal by. */
  readonly code = 'ERR_RDAP_BLOCKED_ADDRESS';
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

// Global unicast IPv6 is 2000::/3 (RFC 4291 §2.4); ipaddr.js calls everything it has no name for
// "unicast", including IPv4-compatible addresses (::/96, e.g. ::7f00:1 = 127.0.0.1).
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (policy.allowInsecure && range === 'loopback') return true;
  if (range !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || parsed.match(GLOBAL_UNICAST_V6);
}

/** Checks the scheme, credentials and (for IP literals) the address of a URL before any request. */
export function assertAllowedUrl(url: string, policy: AddressPolicy): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BlockedAddressError(`"${url}" is not a valid URL.`);
  }
  const schemeAllowed = parsed.protocol === 'https:' || (policy.allowInsecure && parsed.protocol === 'http:');
  if (!schemeAllowed) throw new BlockedAddressError(`The scheme of ${parsed.origin} is not allowed (https only).`);
  if (parsed.username || parsed.password) throw new BlockedAddressError('URLs with credentials are not followed.');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !isAllowedAddress(host, policy)) {
    throw new BlockedAddressError(`The address ${host} is not a public address.`);
  }
  return parsed;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` that resolves as usual and refuses the connection when any
 * resolved address is not allowed, so a DNS name pointing at 10.0.0.1 is caught at connect
 * time (no gap between check and use).
 */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true } as { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const blocked = addresses.find((entry) => !isAllowedAddress(entry.address, policy));
      if (blocked || addresses.length === 0) {
        const refusal = new BlockedAddressError(
          `${hostname} resolves to ${blocked?.address ?? 'no address'}, which is not a public address.`,
        ) as NodeJS.ErrnoException;
        return callback(refusal, []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };
}
