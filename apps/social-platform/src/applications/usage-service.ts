import { type Clock, prepareQuery, utcDate } from '@repo/server-kit';
import { type Kysely, sql } from 'kysely';
import { isForeignKeyViolation } from '../db/errors.ts';
import type { DB } from '../db/schema.ts';

export interface UsageRow {
  day: string;
  method: string;
  calls: number;
  errors: number;
  lastErrorCode: string | null;
}

/** Counts of one app, UTC day and method not yet written. */
interface PendingCounts {
  appId: number;
  day: string;
  method: string;
  calls: number;
  errors: number;
  lastErrorCode: string | null;
}

export interface UsageOptions {
  /** How often (ms) the counts kept in memory are written (USAGE_FLUSH_MS); 0: only by `flush` and `stop`. */
  flushEveryMs: number;
  /** Where a failed periodic write is reported (its counts are kept for the next one). */
  log?: { warn(fields: object, message: string): void };
}

/**
 * api.php calls per app, UTC day and method, with their failures (table `app_usage`), for the
 * developer console. Nothing is limited by these counts (rate limits count on their own), so
 * a call only adds to a count in memory; the counts are written every `flushEveryMs`, one
 * upsert per app, day and method, and on `stop` (graceful shutdown). A crash loses at most
 * the calls of the last `flushEveryMs`; `recent` writes this instance's counts first.
 */
export class UsageService {
  /** Compiled once: it runs once per app, day and method on every write. */
  readonly #add;
  #pending = new Map<string, PendingCounts>();
  /** The write in progress (writes run one after another), settled. */
  #writing: Promise<void> = Promise.resolve();
  readonly #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly options: UsageOptions,
  ) {
    this.#add = prepareQuery(
      db,
      [1, 'day', 'method', 2, 3, 'code' as string | null, 4, 5, 'code2' as string | null],
      (
        appId: number,
        day: string,
        method: string,
        calls: number,
        errors: number,
        errorCode: string | null,
        addedCalls: number,
        addedErrors: number,
        lastErrorCode: string | null,
      ) =>
        db
          .insertInto('app_usage')
          .values({ app_id: appId, day, method, calls, errors, last_error_code: errorCode })
          .onConflict((conflict) =>
            conflict.columns(['app_id', 'day', 'method']).doUpdateSet({
              calls: sql`app_usage.calls + ${addedCalls}`,
              errors: sql`app_usage.errors + ${addedErrors}`,
              last_error_code: sql`coalesce(${lastErrorCode}, app_usage.last_error_code)`,
            }),
          ),
    );
    if (options.flushEveryMs > 0) {
      this.#timer = setInterval(() => this.flush().catch(this.#report), options.flushEveryMs);
      // Counting must not keep a process alive that has nothing else to do (`stop` writes what is left).
      this.#timer.unref();
    }
  }

  /** Counts one call; `errorCode` when it failed. Kept in memory until the next write. */
  record(appId: number, method: string, errorCode: string | undefined): void {
    const day = utcDate(this.clock.now());
    const key = `${appId} ${day} ${method}`;
    let counts = this.#pending.get(key);
    if (!counts) {
      counts = { appId, day, method, calls: 0, errors: 0, lastErrorCode: null };
      this.#pending.set(key, counts);
    }
    counts.calls++;
    if (errorCode !== undefined) {
      counts.errors++;
      counts.lastErrorCode = errorCode;
    }
  }

  /**
   * Writes the counts kept so far (after any write in progress). Counts that fail to be written
   * are kept for the next write, added to the calls counted meanwhile.
   */
  flush(): Promise<void> {
    const write = this.#writing.then(() => this.#write());
    this.#writing = write.catch(() => undefined);
    return write;
  }

  /** Resolves once the writes started so far have ended (periodic ones included), failed or not. */
  settled(): Promise<void> {
    return this.#writing;
  }

  /** Stops the periodic write and writes what is left: on graceful shutdown, before the database closes. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.flush();
  }

  readonly #report = (error: unknown): void => {
    this.options.log?.warn({ err: error }, 'writing app usage failed; its counts are kept for the next write');
  };

  async #write(): Promise<void> {
    const batch = this.#pending;
    if (batch.size === 0) return;
    this.#pending = new Map();
    const unwritten: PendingCounts[] = [];
    let failure: unknown;
    for (const counts of batch.values()) {
      const { appId, day, method, calls, errors, lastErrorCode } = counts;
      try {
        await this.#add(appId, day, method, calls, errors, lastErrorCode, calls, errors, lastErrorCode);
      } catch (error) {
        // The app was deleted since (its usage went with it): its last counts go too.
        if (isForeignKeyViolation(error)) continue;
        unwritten.push(counts);
        failure ??= error;
      }
    }
    if (unwritten.length === 0) return;
    for (const counts of unwritten) this.#keep(counts);
    throw failure;
  }

  /** Puts counts that could not be written back, under the calls counted since (their error code is older). */
  #keep(counts: PendingCounts): void {
    const key = `${counts.appId} ${counts.day} ${counts.method}`;
    const newer = this.#pending.get(key);
    if (!newer) {
      this.#pending.set(key, counts);
      return;
    }
    newer.calls += counts.calls;
    newer.errors += counts.errors;
    newer.lastErrorCode ??= counts.lastErrorCode;
  }

  /** The last `days` days of an app's usage, newest day first, methods by name; this instance's counts included. */
  async recent(appId: number, days: number): Promise<UsageRow[]> {
    // A failed write keeps its counts for later; the console then shows what is stored.
    await this.flush().catch(this.#report);
    const since = utcDate(this.clock.now() - (days - 1) * 86_400_000);
    const rows = await this.db
      .selectFrom('app_usage')
      .select(['day', 'method', 'calls', 'errors', 'last_error_code'])
      .where('app_id', '=', appId)
      .where('day', '>=', since)
      .orderBy('day', 'desc')
      .orderBy('method')
      .execute();
    return rows.map((row) => ({
      day: row.day,
      method: row.method,
      calls: Number(row.calls),
      errors: Number(row.errors),
      lastErrorCode: row.last_error_code,
    }));
  }
}
