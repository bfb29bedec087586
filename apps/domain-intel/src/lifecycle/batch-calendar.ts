import type { Kysely } from 'kysely';
import { isPostgres } from '../db/is-postgres.ts';
import type { DB } from '../db/schema.ts';
import type { SeenBatchTime } from './batch-time-learner.ts';
import type { BatchSpread } from './drop-plan.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Days of the calendar the drop window's spread is drawn from. */
export const SPREAD_DAYS = 14;
/**
 * A day's time further than this from the batch time is not the batch's spread: a name moved
 * by hand, or the days before the registry moved its batch (the learner follows such a move).
 */
const STRAY_FROM_BATCH = 3 * HOUR;

/** One day of a TLD's batch calendar: the first and last registry time of a pending-delete move seen that day. */
export interface BatchDay {
  day: string;
  firstAt: number;
  lastAt: number;
}

/**
 * The one owner of `rdap_batch_days`: each TLD's batch calendar, the registry's own times of the
 * pending-delete moves the re-checks saw, per UTC day (the earliest and latest of them). It shows
 * customers when the batch ran (GET /v1/tlds/{tld}/drops) and gives the drop window its spread.
 */
export class BatchCalendar {
  constructor(private readonly db: Kysely<DB>) {}

  /** Adds what the learner saw to each day's earliest and latest. */
  async record(seen: readonly SeenBatchTime[]): Promise<void> {
    const days = new Map<string, { tld: string; day: string; first_at: number; last_at: number }>();
    for (const { tld, at } of seen) {
      const day = new Date(at).toISOString().slice(0, 10);
      const key = `${tld} ${day}`;
      const known = days.get(key);
      if (!known) days.set(key, { tld, day, first_at: at, last_at: at });
      else {
        known.first_at = Math.min(known.first_at, at);
        known.last_at = Math.max(known.last_at, at);
      }
    }
    // Two-argument min/max: SQLite's scalar functions; Postgres calls them least/greatest.
    const [least, greatest] = isPostgres(this.db) ? ['least', 'greatest'] : ['min', 'max'];
    for (const row of days.values()) {
      await this.db
        .insertInto('rdap_batch_days')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['tld', 'day']).doUpdateSet((eb) => ({
            first_at: eb.fn<number>(least, ['rdap_batch_days.first_at', eb.ref('excluded.first_at')]),
            last_at: eb.fn<number>(greatest, ['rdap_batch_days.last_at', eb.ref('excluded.last_at')]),
          })),
        )
        .execute();
    }
  }

  /** The days of each of `tlds` from `since` (ms) on, oldest first. */
  async days(tlds: readonly string[], since: number): Promise<Map<string, BatchDay[]>> {
    const byTld = new Map<string, BatchDay[]>(tlds.map((tld) => [tld, []]));
    if (tlds.length === 0) return byTld;
    const rows = await this.db
      .selectFrom('rdap_batch_days')
      .select(['tld', 'day', 'first_at', 'last_at'])
      .where('tld', 'in', tlds)
      .where('day', '>=', new Date(since).toISOString().slice(0, 10))
      .orderBy('tld')
      .orderBy('day')
      .execute();
    for (const row of rows) {
      byTld.get(row.tld)?.push({ day: row.day, firstAt: Number(row.first_at), lastAt: Number(row.last_at) });
    }
    return byTld;
  }
}

/** `time`'s time of day relative to `batchTimeOfDay`, in (−12 h, 12 h]. */
function offsetFromBatch(time: number, batchTimeOfDay: number): number {
  const offset = (((time - batchTimeOfDay) % DAY) + DAY) % DAY;
  return offset > DAY / 2 ? offset - DAY : offset;
}

/**
 * How far from `batchTimeOfDay` the registry's batch ran on the calendar's days (strays left
 * out): the earliest and latest, with the batch time itself inside; null without such a day.
 */
export function batchSpread(days: readonly BatchDay[], batchTimeOfDay: number): BatchSpread | null {
  const offsets = days
    .flatMap((day) => [day.firstAt, day.lastAt])
    .map((time) => offsetFromBatch(time, batchTimeOfDay))
    .filter((offset) => Math.abs(offset) <= STRAY_FROM_BATCH);
  if (offsets.length === 0) return null;
  return { early: Math.min(0, ...offsets), late: Math.max(0, ...offsets) };
}
