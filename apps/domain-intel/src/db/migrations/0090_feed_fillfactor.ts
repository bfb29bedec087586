import type { Dialect } from '@repo/server-kit';
import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Postgres only: leave a third of each `feed_domains` page free. The daily alt-TLD refresh
 * re-stamps every row in the pipeline, mostly with only `alt_tlds_date` changing (no index
 * holds it); with room on the page Postgres rewrites such a row in place as a HOT update and
 * skips all eleven indexes, instead of adding an entry to each. Applies to pages written from
 * now on (a `VACUUM FULL` rewrites the old ones). SQLite has no such setting and rewrites only
 * the indexes whose columns an UPDATE sets.
 */
export const feedFillfactorMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await sql`alter table feed_domains set (fillfactor = 70)`.execute(db);
  },
});
