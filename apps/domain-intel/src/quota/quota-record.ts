import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from '../db/is-postgres.ts';
import type { DB } from '../db/schema.ts';

/** How often each API instance writes the counts it saw to the database. */
export const QUOTA_RECORD_INTERVAL_MS = 1_000;
const ROWS_PER_STATEMENT = 500;

export interface CounterDay {
  accountId: string;
  day: string;
}

/**
 * The durable record of the Redis quota counters, in the database's `quota_usage` table (the SQL
 * store's own table, unused while Redis counts). Redis keeps the counters without a guarantee
 * that they outlive it: a Redis restarted without persistence, or a failover to a replica that
 * had not received the last writes, loses or lowers them, and an account would be given its
 * calls again. So each instance notes the highest count Redis answered per account and day, and
 * writes them here every QUOTA_RECORD_INTERVAL_MS (a count only ever goes up here); a counter
 * Redis no longer has starts again from this record, not from 0.
 *
 * What can still be lost: the counts of the last interval before Redis lost its data (at most
 * one second's calls per instance), and the counts an instance noted but had not written when it
 * was killed. Refunds are not written back (a refunded unit stays counted here), so after such a
 * loss an account may have a few units fewer, never more.
 */
export class QuotaRecord {
  readonly #db: Kysely<DB>;
  readonly #onError: (error: unknown) => void;
  #noted = new Map<string, CounterDay & { used: number }>();
  #writing: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(db: Kysely<DB>, options: { onError?: (error: unknown) => void; intervalMs?: number } = {}) {
    this.#db = db;
    this.#onError = options.onError ?? (() => {});
    this.#timer = setInterval(() => {
      this.write().catch(this.#onError);
    }, options.intervalMs ?? QUOTA_RECORD_INTERVAL_MS);
    this.#timer.unref();
  }

  /** A count Redis answered for an account's day (kept until the next write; the highest wins). */
  note(accountId: string, day: string, used: number): void {
    const key = `${accountId}\u0000${day}`;
    const known = this.#noted.get(key);
    if (!known || known.used < used) this.#noted.set(key, { accountId, day, used });
  }

  /** The recorded count of each counter, in order (0 where nothing is recorded). */
  async floors(counters: readonly CounterDay[]): Promise<number[]> {
    if (counters.length === 0) return [];
    const rows = await this.#db
      .selectFrom('quota_usage')
      .select(['account_id', 'day', 'used'])
      .where('account_id', 'in', [...new Set(counters.map((counter) => counter.accountId))])
      .where('day', 'in', [...new Set(counters.map((counter) => counter.day))])
      .execute();
    const recorded = new Map(rows.map((row) => [`${row.account_id}\u0000${row.day}`, Number(row.used)]));
    return counters.map((counter) => recorded.get(`${counter.accountId}\u0000${counter.day}`) ?? 0);
  }

  /** Writes what was noted since the last write (one write at a time; a failed one is retried next time). */
  write(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#writeNoted());
    return this.#writing;
  }

  async #writeNoted(): Promise<void> {
    if (this.#noted.size === 0) return;
    const entries = [...this.#noted.values()];
    this.#noted = new Map();
    const highest = isPostgres(this.#db)
      ? sql<number>`greatest(quota_usage.used, excluded.used)`
      : sql<number>`max(quota_usage.used, excluded.used)`;
    // A failed statement is reported and not retried (an account deleted meanwhile would fail it
    // every time); the accounts' next calls are noted again.
    for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
      await this.#db
        .insertInto('quota_usage')
        .values(
          entries
            .slice(start, start + ROWS_PER_STATEMENT)
            .map((entry) => ({ account_id: entry.accountId, day: entry.day, used: entry.used })),
        )
        .onConflict((conflict) => conflict.columns(['account_id', 'day']).doUpdateSet({ used: highest }))
        .execute()
        .catch(this.#onError);
    }
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.write();
  }
}
