import type { Kysely, Migration } from 'kysely';

/**
 * The day's count the counted call was given (`used` with its unit in it), so a proxy's re-send of
 * it gets the same answer whichever instance it reaches and whatever was counted since. 0 on rows
 * written before this column: their re-sends are answered with the day's count at that moment.
 */
export const quotaRequestIdUsedMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('quota_request_ids')
      .addColumn('used', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
});
