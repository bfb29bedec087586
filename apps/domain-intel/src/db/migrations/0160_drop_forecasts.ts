import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Drop forecasts that publish their error (docs/design/lifecycle.md, "Drop forecasts"):
 * - `feed_domains` gets the window around `expected_drop_at` (earliest, latest);
 * - `rdap_batch_days`: per TLD and UTC day, the first and last registry time of a pending-delete
 *   move the lifecycle saw (its batch calendar, and the spread the window is drawn from);
 * - `drop_forecasts`: per verified drop, the forecast published before it and the verified time.
 */
export const dropForecastsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema.alterTable('feed_domains').addColumn('expected_drop_earliest', int8).execute();
    await db.schema.alterTable('feed_domains').addColumn('expected_drop_latest', int8).execute();
    await db.schema
      .createTable('rdap_batch_days')
      .addColumn('tld', 'text', (col) => col.notNull())
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('first_at', int8, (col) => col.notNull())
      .addColumn('last_at', int8, (col) => col.notNull())
      .addPrimaryKeyConstraint('rdap_batch_days_pk', ['tld', 'day'])
      .execute();
    await db.schema
      .createTable('drop_forecasts')
      .addColumn('domain', 'text', (col) => col.notNull())
      .addColumn('tld', 'text', (col) => col.notNull())
      .addColumn('expected_at', int8, (col) => col.notNull())
      .addColumn('earliest_at', int8)
      .addColumn('latest_at', int8)
      .addColumn('dropped_at', int8, (col) => col.notNull())
      .addPrimaryKeyConstraint('drop_forecasts_pk', ['domain', 'dropped_at'])
      .execute();
    await db.schema.createIndex('drop_forecasts_tld_idx').on('drop_forecasts').columns(['tld', 'dropped_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('drop_forecasts').execute();
    await db.schema.dropTable('rdap_batch_days').execute();
    await db.schema.alterTable('feed_domains').dropColumn('expected_drop_latest').execute();
    await db.schema.alterTable('feed_domains').dropColumn('expected_drop_earliest').execute();
  },
});
