import type { Availability } from '@repo/contracts/domain-intel';
import { type Clock, deadlineSignal, whenAborted } from '@repo/server-kit';
import type { Cache } from '../cache/cache.ts';
import { type NormalizedDomain, parseDomain } from '../domain/normalize.ts';
import type { RdapClient, RdapLookup } from '../rdap/types.ts';
import type { ReservedNames } from './reserved-names.ts';
import type { ZonePresence } from './zone-presence.ts';

type CachedVerdict = Omit<Availability, 'domain' | 'cached'>;
type ParsedDomain = ReturnType<typeof parseDomain>;

/** A check whose inputs are parsed and whose cache read is under way (AvailabilityService.begin). */
export interface StartedCheck {
  /** Decides what the cache did not know and gives one result per input, in order. */
  finish(options?: { deadline?: number }): Promise<Availability[]>;
}

export interface AvailabilitySettings {
  deadlineMs: number;
  ttlMs: { registered: number; reserved: number; available: number; unknown: number };
}

export interface AvailabilityDependencies {
  rdap: RdapClient;
  cache: Cache<CachedVerdict>;
  reserved: ReservedNames;
  clock: Clock;
  /** The zone index, when one is built: names in the latest snapshot are registered. */
  zonePresence?: ZonePresence | undefined;
  onError?: (error: unknown) => void;
}

/**
 * Tri-state availability, decided in this order: syntax rules (invalid), the cache, the latest
 * zone snapshot (registered), then the TLD's registry through RDAP or port-43 WHOIS (registry/):
 * its own "no such domain" is `available`, a record is `registered`, its reserved text
 * `reserved`, anything else `unknown`. A name on a reserved-name list is never `available`: unless
 * the registry holds a record of it (registries run nic.<tld> themselves), it is `reserved`,
 * whatever the registry said, since registries answer most reserved names like free ones. Every
 * answer names its evidence (`source`, `server`); a cached one keeps it and says `cached`.
 */
export class AvailabilityService {
  readonly #deps: AvailabilityDependencies;
  readonly #settings: AvailabilitySettings;

  constructor(deps: AvailabilityDependencies, settings: AvailabilitySettings) {
    this.#deps = deps;
    this.#settings = settings;
  }

  /**
   * One result per input, in order. Lookups run in parallel (the RDAP engine bounds each
   * server); whatever has not answered by `deadline` (wall-clock epoch ms) is `unknown`.
   */
  check(inputs: readonly string[], options: { deadline?: number } = {}): Promise<Availability[]> {
    return this.begin(inputs).finish(options);
  }

  /**
   * The first half of `check`: the inputs parsed and their cached verdicts asked for, so that the
   * cache's round trip (Redis) runs while the caller waits for something else, such as the call's
   * quota. Nothing is decided or counted until `finish`; a check never finished costs one cache read.
   */
  begin(inputs: readonly string[]): StartedCheck {
    const parsed = inputs.map((input) => parseDomain(input));
    const toLookUp = new Map<string, NormalizedDomain>();
    for (const result of parsed) {
      if (result.ok) toLookUp.set(result.domain.name, result.domain);
    }
    const domains = [...toLookUp.values()];
    // The cache never fails (a store that cannot answer is a miss), so a check never finished leaves no rejection.
    const cached = this.#deps.cache.getMany(domains.map((domain) => domain.name));
    return {
      finish: (options = {}) => {
        const deadline = options.deadline ?? Date.now() + this.#settings.deadlineMs;
        return this.#finish(parsed, domains, cached, deadline);
      },
    };
  }

  async #finish(
    parsed: readonly ParsedDomain[],
    domains: NormalizedDomain[],
    cached: Promise<(CachedVerdict | undefined)[]>,
    deadline: number,
  ): Promise<Availability[]> {
    // One signal for the whole call: every lookup below stops on it, down to the registry's socket.
    const signal = deadlineSignal(deadline);
    const decided = await this.#decide(domains, await cached, deadline, signal);
    return parsed.map((result): Availability => {
      if (!result.ok) {
        return {
          domain: result.input,
          available: null,
          status: 'invalid',
          source: 'rules',
          checked_at: this.#now(),
          reason: result.error.code,
          message: result.error.message,
        };
      }
      const { name } = result.domain;
      const answer = decided.get(name) as Availability;
      const reservedBy = this.#deps.reserved.listOf(result.domain);
      if (!reservedBy || answer.status === 'registered' || answer.status === 'reserved') return answer;
      return {
        domain: name,
        available: false,
        status: 'reserved',
        source: 'reserved',
        checked_at: this.#now(),
        reason: 'reserved',
        message: `${name} is reserved: ${reservedBy}.`,
      };
    });
  }

  async #decide(
    domains: NormalizedDomain[],
    cached: (CachedVerdict | undefined)[],
    deadline: number,
    signal: AbortSignal,
  ): Promise<Map<string, Availability>> {
    const results = new Map<string, Availability>();
    const misses: NormalizedDomain[] = [];
    domains.forEach((domain, index) => {
      const hit = cached[index];
      if (hit) results.set(domain.name, { domain: domain.name, ...hit, cached: true });
      else misses.push(domain);
    });
    await Promise.all(
      misses.map(async (domain) => {
        results.set(domain.name, await this.#decideOne(domain.name, deadline, signal));
      }),
    );
    return results;
  }

  async #decideOne(name: string, deadline: number, signal: AbortSignal): Promise<Availability> {
    if ((await this.#inZone(name)) === true) {
      return { domain: name, available: false, status: 'registered', source: 'zone', checked_at: this.#now() };
    }
    const lookup = await this.#lookupWithin(name, deadline, signal);
    const result = toResult(name, lookup);
    // Our own deadline says nothing about the name, so it is not remembered.
    if (lookup.kind !== 'unknown' || lookup.reason !== 'deadline_exceeded') {
      const { domain: _domain, ...verdict } = result;
      await this.#deps.cache.set(name, verdict, this.#settings.ttlMs[result.status]);
    }
    return result;
  }

  async #inZone(name: string): Promise<boolean | null> {
    if (!this.#deps.zonePresence) return null;
    try {
      return await this.#deps.zonePresence.isInZone(name);
    } catch (error) {
      // The zone index is an accelerator; without it RDAP still decides.
      this.#deps.onError?.(error);
      return null;
    }
  }

  /**
   * The registry client stops on the call's signal itself; the race against the same signal (no
   * timer of its own) guarantees the answer by the deadline even if a layer does not listen. The
   * race gives the client's own verdict on that abort (a hanging server's `timeout`, with its
   * server) one turn of the event loop to arrive first.
   */
  async #lookupWithin(name: string, deadline: number, signal: AbortSignal): Promise<RdapLookup> {
    const expired = whenAborted(signal)
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(
        (): RdapLookup => ({
          kind: 'unknown',
          reason: 'deadline_exceeded',
          message: 'The registry did not answer before the deadline of this call.',
          checkedAt: this.#now(),
        }),
      );
    try {
      return await Promise.race([
        this.#deps.rdap.lookupDomain(name, {
          traffic: 'interactive',
          deadline,
          signal,
          registryOnly: true,
        }),
        expired,
      ]);
    } catch (error) {
      this.#deps.onError?.(error);
      return {
        kind: 'unknown',
        reason: 'upstream_error',
        message: 'The registry lookup failed unexpectedly.',
        checkedAt: this.#now(),
      };
    }
  }

  #now(): string {
    return new Date(this.#deps.clock.now()).toISOString();
  }
}

type RegistryDecidedStatus = keyof AvailabilitySettings['ttlMs'];

function toResult(name: string, lookup: RdapLookup): Availability & { status: RegistryDecidedStatus } {
  switch (lookup.kind) {
    case 'found':
      return {
        domain: name,
        available: false,
        status: 'registered',
        source: lookup.record.source,
        server: lookup.record.server,
        checked_at: lookup.record.fetched_at,
        registry_status: lookup.record.status,
      };
    case 'not_found':
      return {
        domain: name,
        available: true,
        status: 'available',
        source: lookup.via,
        server: lookup.server,
        checked_at: lookup.checkedAt,
      };
    case 'reserved':
      return {
        domain: name,
        available: false,
        status: 'reserved',
        source: lookup.via,
        server: lookup.server,
        checked_at: lookup.checkedAt,
        reason: 'reserved',
        message: lookup.message,
      };
    case 'unknown':
      return {
        domain: name,
        available: null,
        status: 'unknown',
        // Without `via` no registry was asked (no server known): our own tables decided.
        source: lookup.via ?? 'rules',
        ...(lookup.server ? { server: lookup.server } : {}),
        checked_at: lookup.checkedAt,
        reason: lookup.reason,
        message: lookup.message,
      };
  }
}
