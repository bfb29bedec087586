import type { RdapClient, RdapLookup, RdapLookupOptions } from '../rdap/types.ts';
import type { WhoisClient } from '../whois/whois-client.ts';
import type { WhoisDirectory } from './whois-directory.ts';

export interface RegistryClientParts {
  /** RDAP: RDAP_BOOTSTRAP_OVERRIDES, then IANA's bootstrap file, then RDAP_EXTRA_SERVERS. */
  rdap: RdapClient & { hasServerFor(suffix: string): Promise<boolean | null> };
  whois: WhoisClient;
  whoisServers: WhoisDirectory;
}

/**
 * Asks a TLD's registry about a name by the best protocol it offers: RDAP where any RDAP server
 * is known for the TLD, else port-43 WHOIS at the TLD's server. Every consumer (availability,
 * /v1/whois, suggestions, the watchlist, drop verification) goes through here, so a TLD added to
 * the data is answered everywhere at once. An RDAP server that fails is not replaced by WHOIS:
 * the registry's RDAP is its authoritative answer, and a second protocol would double the load
 * on a registry that is already failing.
 */
export class RegistryClient implements RdapClient {
  readonly #parts: RegistryClientParts;

  constructor(parts: RegistryClientParts) {
    this.#parts = parts;
  }

  async lookupDomain(name: string, options: RdapLookupOptions): Promise<RdapLookup> {
    const rdap = await this.#parts.rdap.lookupDomain(name, options);
    if (rdap.kind !== 'unknown' || rdap.reason !== 'no_rdap_server') return rdap;
    const suffix = name.slice(name.indexOf('.') + 1);
    const target = this.#parts.whoisServers.targetFor(suffix);
    if (!target) {
      // No registry was asked: the answer rests on our own tables alone.
      return {
        kind: 'unknown',
        reason: 'no_source',
        message: `No RDAP or WHOIS server is known for .${suffix}.`,
        checkedAt: rdap.checkedAt,
      };
    }
    return this.#parts.whois.lookupDomain(name, target, options);
  }

  /** Whether any server answers for the suffix (null: the RDAP bootstrap cannot be loaded and no WHOIS server is known). */
  async hasServerFor(suffix: string): Promise<boolean | null> {
    if (this.#parts.whoisServers.targetFor(suffix)) return true;
    return this.#parts.rdap.hasServerFor(suffix);
  }
}
