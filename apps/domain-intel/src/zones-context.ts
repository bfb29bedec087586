import { openInfrastructure } from '@repo/server-kit/infrastructure';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { migrations } from './db/migrations/index.ts';
import type { DB } from './db/schema.ts';
import { createZonesModule } from './zones/index.ts';

/** What the `zones` commands use of the service. */
export type ZonesContext = Pick<AppContext, 'clock' | 'snapshots' | 'zones' | 'close'>;

/**
 * The database (migrated) and the zones module alone, for the `zones` commands: the full context
 * loads and starts every service (RDAP, mail, billing, delivery, the zone index …), which is most
 * of a zone import's fixed start-up cost and memory.
 */
export async function createZonesContext(config: Config): Promise<ZonesContext> {
  const { database, redis, clock } = await openInfrastructure<DB>(
    config,
    { sqliteFile: 'domain-intel.sqlite', migrations },
    {},
  );
  const zonesModule = await createZonesModule(config, database, clock);
  return {
    clock,
    snapshots: zonesModule.snapshots,
    zones: zonesModule.zones,
    async close() {
      redis?.disconnect();
      await zonesModule.close();
      await database.close();
    },
  };
}
