import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * The daily deletion batch time of each TLD's registry as the lifecycle learned it from the
 * registry's own answers (lifecycle/learned-batch-times.ts), so a restarted process plans from
 * it at once instead of learning it again.
 */
export const rdapBatchTimesMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rdap_batch_times')
      .addColumn('tld', 'text', (col) => col.primaryKey())
      .addColumn('time_of_day', 'integer', (col) => col.notNull())
      .addColumn('learned_at', int8Type(dialect), (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rdap_batch_times').execute();
  },
});
