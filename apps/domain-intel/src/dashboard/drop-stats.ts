import type { FeedFilters } from '@repo/feed-index';
import { type Database, utcDate } from '@repo/server-kit';
import { sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import { applyFilters, feedBase } from '../feed/feed-query.ts';

const DAY_MS = 86_400_000;

export interface DropsPerDay {
  /** Every UTC day of the window, oldest first. */
  days: string[];
  /** Per TLD, the count on each of `days` (same order); TLDs without drops are left out. */
  series: Array<{ tld: string; counts: number[] }>;
}

/**
 * Verified drops (by the day RDAP first confirmed them) per UTC day and TLD over the last
 * `days` days up to `now`, under the explorer's filters, counted in the database by one
 * GROUP BY on the (tld, dropped_at) index.
 */
export async function dropsPerDay(
  database: Database<DB>,
  filters: FeedFilters,
  now: number,
  days: number,
): Promise<DropsPerDay> {
  const lastDay = Math.floor(now / DAY_MS);
  const firstDay = lastDay - days + 1;
  // A literal, not a parameter: Postgres must see the same expression in SELECT and GROUP BY.
  const dayNumber = sql<number>`dropped_at / ${sql.lit(DAY_MS)}`;
  const rows = await applyFilters(feedBase(database.db), { ...filters, status: 'dropped' }, now, database.dialect)
    .where('dropped_at', '>=', firstDay * DAY_MS)
    .where('dropped_at', '<', (lastDay + 1) * DAY_MS)
    .select((eb) => ['tld', dayNumber.as('day'), eb.fn.countAll<number>().as('drops')])
    .groupBy(['tld', dayNumber])
    .execute();
  const dayList = Array.from({ length: days }, (_, i) => utcDate((firstDay + i) * DAY_MS));
  const byTld = new Map<string, number[]>();
  for (const row of rows) {
    const counts = byTld.get(row.tld) ?? new Array<number>(days).fill(0);
    counts[Math.floor(Number(row.day)) - firstDay] = Number(row.drops);
    byTld.set(row.tld, counts);
  }
  const series = [...byTld.entries()]
    .map(([tld, counts]) => ({ tld, counts }))
    .sort((a, b) => a.tld.localeCompare(b.tld));
  return { days: dayList, series };
}
