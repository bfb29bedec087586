import type { FeedSort } from '@repo/contracts/domain-intel';
import { type FeedFilters, feedSqlPredicates } from '@repo/feed-index';
import type { Dialect } from '@repo/server-kit';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { DB, FeedDomainTable } from '../db/schema.ts';

type FeedSelect<O> = SelectQueryBuilder<DB, 'feed_domains', O>;

/**
 * The WHERE clause shared by the page, the count and the export: each filter's predicates as
 * @repo/feed-index defines them (filters.ts FEED_FILTERS), rendered for Kysely.
 */
export function applyFilters<O>(
  query: FeedSelect<O>,
  filters: FeedFilters,
  now: number,
  dialect: Dialect,
): FeedSelect<O> {
  let q = query;
  for (const { column, op, value, hiddenFromSqliteIndexes } of feedSqlPredicates(filters, now)) {
    const ref = sql.ref(column satisfies keyof FeedDomainTable);
    q = q.where(hiddenFromSqliteIndexes && dialect === 'sqlite' ? sql`+${ref}` : ref, op, value);
  }
  return q;
}

/**
 * ORDER BY for each sort, written to match the feed indexes exactly (see 0030_feed.ts):
 * rows without a value always come last, and `domain` breaks ties so pages are stable.
 */
export function applySort<O>(query: FeedSelect<O>, sort: FeedSort, dialect: Dialect): FeedSelect<O> {
  const descNullsLast = (column: 'dropped_at' | 'da' | 'tf' | 'alt_tld_count') =>
    dialect === 'postgres' ? sql`${sql.ref(column)} desc nulls last` : sql`${sql.ref(column)} desc`;
  const ordered = (() => {
    switch (sort) {
      case 'dropped_at':
        return query.orderBy(descNullsLast('dropped_at'));
      case 'da':
        return query.orderBy(descNullsLast('da'));
      case 'tf':
        return query.orderBy(descNullsLast('tf'));
      case 'alt_tld_count':
        return query.orderBy(descNullsLast('alt_tld_count'));
      case 'age':
        return dialect === 'postgres'
          ? query.orderBy('first_archived_at', 'asc')
          : query.orderBy(sql`ifnull(first_archived_at, 9007199254740991)`);
    }
  })();
  return ordered.orderBy('domain', 'asc');
}

export function feedBase(db: Kysely<DB>) {
  return db.selectFrom('feed_domains');
}
