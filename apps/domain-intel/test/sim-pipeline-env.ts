import { SIM_MAJESTIC_KEY, SIM_MOZ_TOKEN, type UpstreamSim } from '@repo/upstream-sim';
import { simRdapEnv } from './rdap-helpers.ts';

/** The environment that points every upstream of the pipeline at the simulator. */
export function simPipelineEnv(sim: UpstreamSim, tlds: readonly string[]): Record<string, string> {
  return {
    ...simRdapEnv(sim, { RDAP_BREAKER_MIN_REQUESTS: '1000' }),
    TRACKED_TLDS: tlds.join(','),
    CZDS_AUTH_URL: `${sim.url}/czds-auth`,
    CZDS_API_URL: sim.url,
    CZDS_USERNAME: sim.czds.username,
    CZDS_PASSWORD: sim.czds.password,
    CZDS_RETRY_DELAY_MS: '5',
    WAYBACK_CDX_URL: `${sim.url}/wayback/cdx/search/cdx`,
    WAYBACK_REQUESTS_PER_MINUTE: '6000',
    MOZ_API_URL: `${sim.url}/moz/v2/url_metrics`,
    MOZ_TOKEN: SIM_MOZ_TOKEN,
    MAJESTIC_API_URL: `${sim.url}/majestic/api/json`,
    MAJESTIC_API_KEY: SIM_MAJESTIC_KEY,
    FEED_COUNT_CACHE_SECONDS: '0',
    // The test churns keep names a day in redemption and a day in pending delete.
    LIFECYCLE_REDEMPTION_DAYS: '1',
    LIFECYCLE_PENDING_DELETE_DAYS: '1',
  };
}
