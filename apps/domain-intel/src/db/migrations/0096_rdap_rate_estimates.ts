import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Per RDAP registry host, what the last re-check run's due drop checks needed against the rate
 * the host is allowed (lifecycle/registry-rate-estimates.ts), so every process's /metrics shows
 * it whichever process (API instance or worker) ran the job.
 */
export const rdapRateEstimatesMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rdap_rate_estimates')
      .addColumn('host', 'text', (col) => col.primaryKey())
      .addColumn('tlds', 'text', (col) => col.notNull())
      .addColumn('needed_per_second', 'double precision', (col) => col.notNull())
      .addColumn('configured_per_second', 'double precision', (col) => col.notNull())
      .addColumn('purge_checks', 'integer', (col) => col.notNull())
      .addColumn('estimated_at', int8Type(dialect), (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rdap_rate_estimates').execute();
  },
});
