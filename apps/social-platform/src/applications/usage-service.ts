import { type Clock, prepareQuery, TurnBatcher, utcDate } from '@repo/server-kit';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.ts';

export interface UsageRow {
  day: string;
  method: string;
  calls: number;
  errors: number;
  lastErrorCode: string | null;
}

interface CallOutcome {
  appId: number;
  day: string;
  method: string;
  errorCode: string | undefined;
}

/** api.php calls per app, UTC day and method, with their failures (table `app_usage`). */
export class UsageService {
  /** Compiled once: it runs for every api.php call (once per turn and app method, see record). */
  readonly #add;
  readonly #batches: TurnBatcher<CallOutcome, void>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
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
    this.#batches = new TurnBatcher(async (outcomes) => {
      const { appId, day, method } = outcomes[0]!;
      let errors = 0;
      let lastErrorCode: string | null = null;
      for (const outcome of outcomes) {
        if (outcome.errorCode === undefined) continue;
        errors++;
        lastErrorCode = outcome.errorCode;
      }
      const calls = outcomes.length;
      await this.#add(appId, day, method, calls, errors, lastErrorCode, calls, errors, lastErrorCode);
      return outcomes.map(() => undefined);
    });
  }

  /**
   * Counts one call; `errorCode` when it failed. The calls of one app and method in the same turn
   * of the event loop are added in one upsert (TurnBatcher), so concurrent calls never lose a
   * count, and each call's count is stored before this returns.
   */
  async record(appId: number, method: string, errorCode: string | undefined): Promise<void> {
    const day = utcDate(this.clock.now());
    await this.#batches.add(`${appId} ${day} ${method}`, { appId, day, method, errorCode });
  }

  /** The last `days` days of an app's usage, newest day first, methods by name. */
  async recent(appId: number, days: number): Promise<UsageRow[]> {
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
