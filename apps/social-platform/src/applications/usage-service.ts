import { type Clock, utcDate } from '@repo/server-kit';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.ts';

export interface UsageRow {
  day: string;
  method: string;
  calls: number;
  errors: number;
  lastErrorCode: string | null;
}

/** api.php calls per app, UTC day and method, with their failures (table `app_usage`). */
export class UsageService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Counts one call; `errorCode` when it failed. One upsert, so concurrent calls never lose a count. */
  async record(appId: number, method: string, errorCode: string | undefined): Promise<void> {
    const failed = errorCode === undefined ? 0 : 1;
    await this.db
      .insertInto('app_usage')
      .values({
        app_id: appId,
        day: utcDate(this.clock.now()),
        method,
        calls: 1,
        errors: failed,
        last_error_code: errorCode ?? null,
      })
      .onConflict((conflict) =>
        conflict.columns(['app_id', 'day', 'method']).doUpdateSet({
          calls: sql`app_usage.calls + 1`,
          errors: sql`app_usage.errors + ${failed}`,
          last_error_code: errorCode === undefined ? sql`app_usage.last_error_code` : errorCode,
        }),
      )
      .execute();
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
