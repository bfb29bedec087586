import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** How long a sent notice's row is kept: its dedupe keys are per day or per event, never older. */
const KEEP_DAYS = 90;

/** The `sent_notices` table: which account notices went out, so each goes once. */
export class SentNotices {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims a notice before it is sent: true for the first claim of `dedupeKey` only (one
   * INSERT … ON CONFLICT DO NOTHING, so two instances cannot both win).
   */
  async claim(dedupeKey: string, accountId: string, kind: string): Promise<boolean> {
    const now = this.clock.now();
    const result = await this.db
      .insertInto('sent_notices')
      .values({ dedupe_key: dedupeKey, account_id: accountId, kind, sent_at: now })
      .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
      .executeTakeFirst();
    const claimed = Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    if (claimed) {
      // Notices are a few per account and day: forgetting those too old to matter here keeps the table small.
      await this.db
        .deleteFrom('sent_notices')
        .where('sent_at', '<', now - KEEP_DAYS * 86_400_000)
        .execute();
    }
    return claimed;
  }

  /** Gives a claim back when its mail could not be sent, so a later occasion may send it. */
  async release(dedupeKey: string): Promise<void> {
    await this.db.deleteFrom('sent_notices').where('dedupe_key', '=', dedupeKey).execute();
  }

  /** The notices of an account, oldest first (dashboard, tests). */
  list(accountId: string) {
    return this.db
      .selectFrom('sent_notices')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('sent_at', 'asc')
      .execute();
  }
}
