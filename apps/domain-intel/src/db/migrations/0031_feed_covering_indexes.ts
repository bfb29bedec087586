import type { Dialect } from '@repo/server-kit';
import { type Kysely, type Migration, sql } from 'kysely';

/** Every column a feed filter tests, carried in each sort index after the sort key. */
const FILTER_COLUMNS = sql`tld, da, tf, first_archived_at, dropped_at`;

/**
 * Makes the feed's sort indexes covering for every filter: a page at offset 10,000 with all
 * filters is then found by walking one index, never the table, and only the 100 rows of the
 * page are read from the table (FeedService.list). Replaces the narrower 0030 indexes; the
 * per-TLD one is no longer needed because `tld` is in every index.
 */
export const feedCoveringIndexesMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    for (const name of [
      'feed_status_dropped_idx',
      'feed_status_tld_dropped_idx',
      'feed_status_da_idx',
      'feed_status_tf_idx',
      'feed_status_alt_idx',
      'feed_status_age_idx',
      'feed_dropped_idx',
    ]) {
      await sql`drop index if exists ${sql.id(name)}`.execute(db);
    }
    const nullsLast = dialect === 'postgres' ? sql` nulls last` : sql``;
    const descending = (column: string) => sql`${sql.ref(column)} desc${nullsLast}`;
    const ageKey = dialect === 'postgres' ? sql`first_archived_at` : sql`ifnull(first_archived_at, 9007199254740991)`;
    const indexes: Record<string, ReturnType<typeof sql>> = {
      feed_dropped_cover_idx: sql`status, ${descending('dropped_at')}, domain, ${FILTER_COLUMNS}`,
      feed_da_cover_idx: sql`status, ${descending('da')}, domain, ${FILTER_COLUMNS}`,
      feed_tf_cover_idx: sql`status, ${descending('tf')}, domain, ${FILTER_COLUMNS}`,
      feed_alt_cover_idx: sql`status, ${descending('alt_tld_count')}, domain, ${FILTER_COLUMNS}`,
      feed_age_cover_idx: sql`status, ${ageKey}, domain, ${FILTER_COLUMNS}`,
      // status=any spans four statuses: one index in drop order across all of them.
      feed_any_dropped_cover_idx: sql`${descending('dropped_at')}, domain, status, ${FILTER_COLUMNS}`,
    };
    for (const [name, columns] of Object.entries(indexes)) {
      await sql`create index ${sql.id(name)} on feed_domains (${columns})`.execute(db);
    }
  },
});
