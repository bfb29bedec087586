import type { Clock, Redis } from '@repo/server-kit';
import { createCache } from '../cache/cache.ts';
import type { Config } from '../config.ts';
import type { RdapClient } from '../rdap/types.ts';
import { AvailabilityService } from './availability-service.ts';
import { createReservedNames } from './reserved-names.ts';
import type { ZonePresence } from './zone-presence.ts';

export * from './availability-service.ts';

/** The availability service of a process, from configuration (Redis cache when REDIS_URL is set). */
export function createAvailabilityService(
  config: Config,
  deps: {
    rdap: RdapClient;
    redis: Redis | undefined;
    clock: Clock;
    zonePresence?: ZonePresence | undefined;
    onError: (error: unknown) => void;
  },
): AvailabilityService {
  return new AvailabilityService(
    {
      rdap: deps.rdap,
      cache: createCache(deps.redis, {
        namespace: 'availability',
        maxEntries: config.CHECK_CACHE_MAX_ENTRIES,
        onError: deps.onError,
      }),
      reserved: createReservedNames(config),
      clock: deps.clock,
      zonePresence: deps.zonePresence,
      onError: deps.onError,
    },
    {
      deadlineMs: config.CHECK_DEADLINE_MS,
      ttlMs: {
        registered: config.CHECK_CACHE_TTL_REGISTERED_S * 1000,
        reserved: config.CHECK_CACHE_TTL_REGISTERED_S * 1000,
        available: config.CHECK_CACHE_TTL_AVAILABLE_S * 1000,
        unknown: config.CHECK_CACHE_TTL_UNKNOWN_S * 1000,
      },
    },
  );
}
