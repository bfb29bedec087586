import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

export interface StoredEvent {
  id: string;
  type: string;
  /** Stripe's `created`, epoch ms. */
  created: number;
  payload: string;
}

/** The `billing_events` table: every Stripe event received, stored before it is applied. */
export class BillingEvents {
  constructor(private readonly db: Kysely<DB>) {}

  /** Stores the event unless a delivery of it was stored before; returns whether it was already applied. */
  async store(event: StoredEvent, receivedAt: number): Promise<{ alreadyApplied: boolean }> {
    await this.db
      .insertInto('billing_events')
      .values({ ...event, received_at: receivedAt, account_id: null, applied_at: null, outcome: null })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('billing_events')
      .select('applied_at')
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    return { alreadyApplied: row.applied_at !== null };
  }

  /**
   * Marks the event applied. Only the first caller gets true: two deliveries of one event that
   * race both apply the (idempotent) state, but only one sends its mail and notifications.
   */
  async markApplied(id: string, at: number, accountId: string | null, outcome: string): Promise<boolean> {
    const result = await this.db
      .updateTable('billing_events')
      .set({ applied_at: at, account_id: accountId, outcome })
      .where('id', '=', id)
      .where('applied_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  find(id: string) {
    return this.db.selectFrom('billing_events').selectAll().where('id', '=', id).executeTakeFirst();
  }

  list(accountId: string) {
    return this.db
      .selectFrom('billing_events')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created', 'asc')
      .execute();
  }
}
