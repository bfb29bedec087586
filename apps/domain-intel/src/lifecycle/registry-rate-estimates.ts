import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { RegistryRateEstimate } from './registry-rate-plan.ts';

/** The one owner of `rdap_rate_estimates`: the last run's estimate per registry host, for /metrics. */
export class RegistryRateEstimates {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async save(estimates: readonly RegistryRateEstimate[]): Promise<void> {
    const estimatedAt = this.clock.now();
    for (const estimate of estimates) {
      const values = {
        tlds: estimate.tlds.join(','),
        needed_per_second: estimate.neededPerSecond,
        // The column keeps its first name; it holds the rate the run was allowed.
        configured_per_second: estimate.allowedPerSecond,
        purge_checks: estimate.purgeChecks,
        estimated_at: estimatedAt,
      };
      await this.db
        .insertInto('rdap_rate_estimates')
        .values({ host: estimate.host, ...values })
        .onConflict((conflict) => conflict.column('host').doUpdateSet(values))
        .execute();
    }
  }

  async latest(): Promise<RegistryRateEstimate[]> {
    const rows = await this.db.selectFrom('rdap_rate_estimates').selectAll().orderBy('host').execute();
    return rows.map((row) => ({
      host: row.host,
      tlds: row.tlds.split(','),
      neededPerSecond: Number(row.needed_per_second),
      allowedPerSecond: Number(row.configured_per_second),
      purgeChecks: Number(row.purge_checks),
    }));
  }
}
