import type { Clock, Redis } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import { createAvailabilityService } from '../availability/index.ts';
import type { ZonePresence } from '../availability/zone-presence.ts';
import type { Config } from '../config.ts';
import type { DB } from '../db/schema.ts';
import type { DeliveryService } from '../delivery/delivery-service.ts';
import type { QuotaService } from '../quota/quota-service.ts';
import type { RdapClient } from '../rdap/types.ts';
import { backgroundRegistry } from './background-registry.ts';
import { BulkCheckService } from './bulk-check-service.ts';
import { BulkCheckStore } from './bulk-check-store.ts';

export * from './bulk-check-service.ts';

/**
 * The bulk jobs of a process: an availability service of their own (same rules, cache namespace
 * and zone index as /v1/check) whose registry lookups are background traffic.
 */
export function createBulkChecks(
  config: Config,
  deps: {
    db: Kysely<DB>;
    rdap: RdapClient;
    redis: Redis | undefined;
    clock: Clock;
    zonePresence: ZonePresence;
    quota: QuotaService;
    delivery: Pick<DeliveryService, 'emit'>;
    onError: (error: unknown) => void;
  },
): BulkCheckService {
  return new BulkCheckService({
    store: new BulkCheckStore(deps.db),
    availability: createAvailabilityService(config, {
      rdap: backgroundRegistry(deps.rdap),
      redis: deps.redis,
      clock: deps.clock,
      zonePresence: deps.zonePresence,
      onError: deps.onError,
    }),
    quota: deps.quota,
    clock: deps.clock,
    emitCompleted: (accountId, data, dedupeKey) =>
      deps.delivery.emit(accountId, 'bulk_check.completed', data, dedupeKey),
  });
}
