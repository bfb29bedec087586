import type { Clock, Redis } from '@repo/server-kit';
import { type Cache, createCache } from '../cache/cache.ts';
import type { Config } from '../config.ts';
import { recordAges } from '../rdap/client.ts';
import type { RawRdapDocuments, RdapClient, RdapLookup, WhoisRecord } from '../rdap/types.ts';

/** A /v1/whois answer: the record as of now, whether it came from the cache, and the documents behind it. */
export type WhoisAnswer =
  | { kind: 'found'; record: WhoisRecord; raw: RawRdapDocuments; cached: boolean }
  | Exclude<RdapLookup, { kind: 'found' }>;

export interface WhoisTtls {
  found: number;
  not_found: number;
  unknown: number;
}

/**
 * WHOIS lookups behind a cache, each outcome with its own lifetime: a record changes rarely, a
 * free name may be taken any minute, a failure is kept only long enough to spare the registry.
 * `age_days` and `expires_in_days` are recomputed whenever a stored record is served.
 */
export class WhoisService {
  constructor(
    private readonly deps: { rdap: RdapClient; cache: Cache<RdapLookup>; clock: Clock },
    private readonly ttlMs: WhoisTtls,
  ) {}

  async lookup(name: string): Promise<WhoisAnswer> {
    const stored = await this.deps.cache.get(name);
    if (stored) return this.#answer(stored, true);
    const lookup = await this.deps.rdap.lookupDomain(name, { traffic: 'interactive' });
    // A lookup cut short by our own deadline says nothing about the registry.
    if (lookup.kind !== 'unknown' || lookup.reason !== 'deadline_exceeded') {
      // A reserved name stays reserved about as long as a record stays as it is.
      await this.deps.cache.set(name, lookup, this.ttlMs[lookup.kind === 'reserved' ? 'found' : lookup.kind]);
    }
    return this.#answer(lookup, false);
  }

  #answer(lookup: RdapLookup, cached: boolean): WhoisAnswer {
    if (lookup.kind !== 'found') return lookup;
    const record = { ...lookup.record, ...recordAges(lookup.record, this.deps.clock.now()) };
    return { kind: 'found', record, raw: lookup.raw, cached };
  }
}

export function createWhoisService(
  config: Config,
  deps: { rdap: RdapClient; redis: Redis | undefined; clock: Clock; onError: (error: unknown) => void },
): WhoisService {
  const cache = createCache<RdapLookup>(deps.redis, {
    namespace: 'whois',
    maxEntries: config.WHOIS_CACHE_MAX_ENTRIES,
    onError: deps.onError,
  });
  return new WhoisService(
    { rdap: deps.rdap, cache, clock: deps.clock },
    {
      found: config.WHOIS_CACHE_TTL_FOUND_S * 1000,
      not_found: config.WHOIS_CACHE_TTL_NOT_FOUND_S * 1000,
      unknown: config.WHOIS_CACHE_TTL_UNKNOWN_S * 1000,
    },
  );
}
