import type { FeedSort } from '@repo/contracts/domain-intel';
import { ANY_STATUSES, type FeedFilters, YEAR_MS } from '@repo/feed-index';
import type { Dialect } from '@repo/server-kit';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../db/schema.ts';

type FeedSelect<O> = SelectQueryBuilder<DB, 'feed_domains', O>;

/** The WHERE clause shared by the page, the count and the export. */
export function applyFilters<O>(
  query: FeedSelect<O>,
  filters: FeedFilters,
  now: number,
  dialect: Dialect,
): FeedSelect<O> {
  let q = query;
  if (filters.status !== 'any') q = q.where('status', '=', filters.status);
  // SQLite would serve `status IN (…)` from the per-status indexes and then sort every row;
  // the unary plus hides `status` from index selection so it walks the drop-order index
  // (which carries `status`) instead. Postgres plans this well by itself.
  else if (dialect === 'sqlite') q = q.where(sql<string>`+status`, 'in', ANY_STATUSES);
  else q = q.where('status', 'in', ANY_STATUSES);
  if (filters.tlds)
    q = filters.tlds.length === 1 ? q.where('tld', '=', filters.tlds[0]!) : q.where('tld', 'in', filters.tlds);
  if (filters.minYears !== null && filters.minYears > 0) {
    q = q.where('first_archived_at', '<=', Math.floor(now - filters.minYears * YEAR_MS));
  }
  if (filters.minDa !== null) q = q.where('da', '>=', filters.minDa);
  if (filters.minTf !== null) q = q.where('tf', '>=', filters.minTf);
  if (filters.droppedAfter !== null) q = q.where('dropped_at', '>=', filters.droppedAfter);
  if (filters.droppedBefore !== null) q = q.where('dropped_at', '<', filters.droppedBefore);
  if (filters.maxLength !== null) q = q.where('length', '<=', filters.maxLength);
  if (filters.hyphens === false) q = q.where('has_hyphen', '=', 0);
  if (filters.digits === false) q = q.where('has_digit', '=', 0);
  // The text is letters, digits and hyphens only (filters.ts), so it holds no LIKE wildcard.
  if (filters.contains !== null) q = q.where('label', 'like', `%${filters.contains}%`);
  if (filters.minAltTlds !== null) q = q.where('alt_tld_count', '>=', filters.minAltTlds);
  if (filters.dropsAfter !== null) q = q.where('expected_drop_at', '>=', filters.dropsAfter);
  if (filters.dropsBefore !== null) q = q.where('expected_drop_at', '<', filters.dropsBefore);
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
