import { prepareQuery } from '@repo/server-kit';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../db/is-postgres.ts';
import type { DB } from '../db/schema.ts';
import {
  type DailyUsage,
  type QuotaStore,
  type QuotaTake,
  type QuotaTakeRequest,
  REQUEST_ID_SECONDS,
} from './quota-store.ts';

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
  #nextSweep = 0;

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
    this.#sweepRequestIds();
    if (isPostgres(this.db)) {
      // A take with a request id writes its marker and its unit in one transaction of its own.
      return Promise.allSettled(
        requests.map((request) =>
          request.requestId === undefined
            ? this.#take(this.db, this.#increment, request)
            : this.db
                .transaction()
                .execute((transaction) => this.#take(transaction, this.#increment.on(transaction), request)),
        ),
      );
    }
    if (requests.length === 1 && requests[0]!.requestId === undefined) return this.#takeEach(this.db, requests);
    return this.db.transaction().execute((transaction) => this.#takeEach(transaction, requests));
  }

  #takeEach(
    executor: Kysely<DB>,
    requests: readonly QuotaTakeRequest[],
  ): Promise<Array<PromiseSettledResult<QuotaTake>>> {
    const increment = executor === this.db ? this.#increment : this.#increment.on(executor);
    return Promise.allSettled(requests.map((request) => this.#take(executor, increment, request)));
  }

  /**
   * Inside a transaction when the request has an id: the marker is inserted first (a re-send of
   * a counted call finds it and takes nothing), then given the count its unit made, or removed
   * again when no unit was taken, so a later re-send of a refused call is decided afresh; both
   * commit with the unit or not at all. A re-send is answered the count its call was given, not
   * the day's count now, so it gets the first answer again whatever was counted since.
   */
  async #take(executor: Kysely<DB>, increment: Increment, request: QuotaTakeRequest): Promise<QuotaTake> {
    const { accountId, day, requestId } = request;
    if (requestId === undefined) return this.#takeUnits(executor, increment, request);
    if (!(await markRequestId(executor, accountId, requestId))) {
      const marked = await markerOf(executor, accountId, requestId);
      // 0: a marker written before the count was kept.
      const used = marked || (await usedOn(executor, accountId, day));
      return { taken: 0, used, repeated: true };
    }
    const take = await this.#takeUnits(executor, increment, request);
    const marker = { account_id: accountId, request_id: requestId } as const;
    if (take.taken === 0) {
      await executor
        .deleteFrom('quota_request_ids')
        .where((row) => row.and(marker))
        .execute();
    } else {
      await executor
        .updateTable('quota_request_ids')
        .set({ used: take.used })
        .where((row) => row.and(marker))
        .execute();
    }
    return take;
  }

  async #takeUnits(
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

  /** Drops the request ids past their time, at most once per REQUEST_ID_SECONDS per instance. */
  #sweepRequestIds(): void {
    const now = Date.now();
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + REQUEST_ID_SECONDS * 1000;
    this.db
      .deleteFrom('quota_request_ids')
      .where('expires_at', '<', now)
      .execute()
      .catch(() => {
        // Swept again next time; an expired row only makes its id look counted, never more units.
        this.#nextSweep = 0;
      });
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

/**
 * Records a request id as counted for the account: true when it is new (or its earlier record
 * expired, which is renewed), false when it was counted within REQUEST_ID_SECONDS.
 */
async function markRequestId(executor: Kysely<DB>, accountId: string, requestId: string): Promise<boolean> {
  const now = Date.now();
  const marked = await executor
    .insertInto('quota_request_ids')
    .values({ account_id: accountId, request_id: requestId, expires_at: now + REQUEST_ID_SECONDS * 1000 })
    .onConflict((conflict) =>
      conflict
        .columns(['account_id', 'request_id'])
        .doUpdateSet({ expires_at: now + REQUEST_ID_SECONDS * 1000 })
        .where('quota_request_ids.expires_at', '<', now),
    )
    .returning('request_id')
    .executeTakeFirst();
  return marked !== undefined;
}

/** The count a marked request id's call was given (0 when the marker predates the column). */
async function markerOf(executor: Kysely<DB>, accountId: string, requestId: string): Promise<number> {
  const row = await executor
    .selectFrom('quota_request_ids')
    .select('used')
    .where('account_id', '=', accountId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row?.used ?? 0;
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
