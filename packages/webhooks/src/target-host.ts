import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AddressPolicy, isAllowedAddress } from './address-guard.ts';

/** The addresses a host name resolves to (every family), as a connection would find them. */
export type HostResolver = (host: string) => Promise<readonly string[]>;

export const resolveWithSystem: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * The first address of `host` that the delivery guard would refuse (the rules of
 * `isAllowedAddress`: public unicast only, loopback too in the insecure mode), or undefined.
 *
 * A target is checked when it is made so that `localhost` or a name pointing into a private
 * network is refused at once, not after a day of failed deliveries. A name that does not
 * resolve now is let through: nothing can be said of it yet, and every connection resolves and
 * checks again (`guardedLookup`), so the creation check is early, never the only one.
 */
export async function refusedAddressOf(
  host: string,
  policy: AddressPolicy,
  resolve: HostResolver,
): Promise<string | undefined> {
  if (isIP(host) !== 0) return isAllowedAddress(host, policy) ? undefined : host;
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    return undefined;
  }
  return addresses.find((address) => !isAllowedAddress(address, policy));
}
