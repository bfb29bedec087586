import { prepareQuery } from '@repo/server-kit';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../db/is-postgres.ts';
import type { DB } from '../db/schema.ts';
import type { DailyUsage, QuotaStore, QuotaTake, QuotaTakeRequest } from './quota-store.ts';

/** The take's statement: `units` more for the account's day while the count is at most `usedAtMost`. */
type Increment = (
  accountId: string,
  day: string,
  units: number,
  added: number,
  usedAtMost: number,
) => Promise<Array<{ used: number }>>;

/** Unlimited plans are still counted; the bound is the largest value of the integer column. */
const UNLIMITED = 2_147_483_647;

/**
 * On PostgreSQL the take's transaction commits without waiting for its WAL flush (what `SET LOCAL
 * synchronous_commit = off` does, here inside the one statement: a RETURNING expression is evaluated
 * before the commit, and set_config's `true` makes it last for this transaction only). Every caller
 * of the row waits on its lock until the holder commits, so a flush per take (milliseconds on a busy
 * disk) would cap the whole API's counted calls at one batch per flush. What it gives up: when the
 * PostgreSQL server itself crashes (not the API), the takes of its last ~0.6 s (3 × wal_writer_delay)
 * may be lost, so an account could get that many calls over its limit that day. Concurrent takes
 * stay exact: the row lock is released at commit, flushed or not, and every later reader sees it.
 */
const ASYNCHRONOUS_COMMIT = sql<string>`set_config('synchronous_commit', 'off', true)`.as('synchronous_commit');

/**
 * One statement per take (the takes of a turn, one per account, are sent together rather than one
 * after the other): insert the day's row or add all the units only while they fit under the
 * limit. Both SQLite and Postgres serialise the upsert on the row, so concurrent callers and
 * several API instances sharing the database can never exceed the limit. When the units do not
 * all fit (the last few of the day), they are taken one statement each, as many as are left.
 */
export class SqlQuotaStore implements QuotaStore {
  /** Compiled once: this statement runs on every counted call. */
  readonly #increment;

  constructor(private readonly db: Kysely<DB>) {
    // `used <= limit - units` (computed here) rather than `used + units <= limit`: no integer
    // overflow near UNLIMITED.
    this.#increment = prepareQuery(
      db,
      ['account', 'day', 1, 2, 3],
      (accountId: string, day: string, units: number, added: number, usedAtMost: number) =>
        db
          .insertInto('quota_usage')
          .values({ account_id: accountId, day, used: units })
          .onConflict((conflict) =>
            conflict
              .columns(['account_id', 'day'])
              .doUpdateSet({ used: sql`quota_usage.used + ${added}` })
              .where('quota_usage.used', '<=', usedAtMost),
          )
          .returning(isPostgres(db) ? ['used', ASYNCHRONOUS_COMMIT] : ['used']),
    );
  }

  /**
   * On SQLite the takes of several accounts share one transaction: each commit is a round of file
   * locks and WAL writes (6 fcntl and 2 pwrite calls), and with a key per account the turn's takes
   * were one commit each, ~7 µs of system time per call (16 accounts, api-overhead many-keys). A
   * failing statement fails its own account's take; a failing commit fails the turn's. PostgreSQL
   * sends the takes side by side on the pool's connections, each its own transaction.
   */
  takeMany(requests: readonly QuotaTakeRequest[]): Promise<Array<PromiseSettledResult<QuotaTake>>> {
    if (requests.length === 1 || isPostgres(this.db)) return this.#takeEach(this.db, requests);
    return this.db.transaction().execute((transaction) => this.#takeEach(transaction, requests));
  }

  #takeEach(
    executor: Kysely<DB>,
    requests: readonly QuotaTakeRequest[],
  ): Promise<Array<PromiseSettledResult<QuotaTake>>> {
    const increment = executor === this.db ? this.#increment : this.#increment.on(executor);
    return Promise.allSettled(requests.map((request) => this.#take(executor, increment, request)));
  }

  async #take(
    executor: Kysely<DB>,
    increment: Increment,
    { accountId, day, limit, units }: QuotaTakeRequest,
  ): Promise<QuotaTake> {
    const bound = limit ?? UNLIMITED;
    if (units <= bound) {
      const [row] = await increment(accountId, day, units, units, bound - units);
      if (row) return { taken: units, used: row.used };
    }
    if (units === 1) return { taken: 0, used: await usedOn(executor, accountId, day) };
    // Not all fit: one unit at a time, until the limit refuses one.
    let taken = 0;
    while (taken < units) {
      const [row] = await increment(accountId, day, 1, 1, bound - 1);
      if (!row) break;
      taken++;
    }
    return { taken, used: await usedOn(executor, accountId, day) };
  }

  /** The same upsert as a take: it adds the units only while all of them fit, so it never takes part. */
  async takeWhole({ accountId, day, limit, units }: QuotaTakeRequest): Promise<QuotaTake> {
    const bound = limit ?? UNLIMITED;
    if (units <= bound) {
      const [row] = await this.#increment(accountId, day, units, units, bound - units);
      if (row) return { taken: units, used: row.used };
    }
    return { taken: 0, used: await usedOn(this.db, accountId, day) };
  }

  async refund(accountId: string, day: string): Promise<void> {
    await this.db
      .updateTable('quota_usage')
      .set({ used: sql`used - 1` })
      .where('account_id', '=', accountId)
      .where('day', '=', day)
      .where('used', '>', 0)
      .execute();
  }

  used(accountId: string, day: string): Promise<number> {
    return usedOn(this.db, accountId, day);
  }

  // The daily rows are the history: nothing is deleted, so any range can be read.
  async history(accountId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    return this.db
      .selectFrom('quota_usage')
      .select(['day', 'used'])
      .where('account_id', '=', accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day', 'asc')
      .execute();
  }
}

/** The day's count, read through `executor` (inside a turn's transaction: through it, or SQLite would wait on itself). */
async function usedOn(executor: Kysely<DB>, accountId: string, day: string): Promise<number> {
  const row = await executor
    .selectFrom('quota_usage')
    .select('used')
    .where('account_id', '=', accountId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row?.used ?? 0;
}
