import { prepareQuery } from '@repo/server-kit';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { DailyUsage, QuotaDecision, QuotaStore } from './quota-store.ts';

/** Unlimited plans are still counted; the bound is the largest value of the integer column. */
const UNLIMITED = 2_147_483_647;

/**
 * One statement per call: insert the day's row or increment it only while under the limit.
 * Both SQLite and Postgres serialise the upsert on the row, so concurrent callers and
 * several API instances sharing the database can never exceed the limit.
 */
export class SqlQuotaStore implements QuotaStore {
  /** Compiled once: this statement runs on every counted call. */
  readonly #increment;

  constructor(private readonly db: Kysely<DB>) {
    this.#increment = prepareQuery(db, ['account', 'day', 0], (accountId: string, day: string, limit: number) =>
      db
        .insertInto('quota_usage')
        .values({ account_id: accountId, day, used: sql.lit(1) })
        .onConflict((conflict) =>
          conflict
            .columns(['account_id', 'day'])
            .doUpdateSet({ used: sql`quota_usage.used + 1` })
            .where('quota_usage.used', '<', limit),
        )
        .returning('used'),
    );
  }

  async consume(accountId: string, day: string, limit: number | null): Promise<QuotaDecision> {
    const [row] = await this.#increment(accountId, day, limit ?? UNLIMITED);
    if (row) return { allowed: true, used: row.used };
    return { allowed: false, used: await this.used(accountId, day) };
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

  async used(accountId: string, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('quota_usage')
      .select('used')
      .where('account_id', '=', accountId)
      .where('day', '=', day)
      .executeTakeFirst();
    return row?.used ?? 0;
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
