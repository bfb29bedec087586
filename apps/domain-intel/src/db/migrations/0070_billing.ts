import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Stripe billing: each subscription row learns its Stripe customer, subscription and status;
 * every webhook event received is kept (`billing_events`, keyed by Stripe's event id, so a
 * redelivery is recognised) with the time it was applied.
 */
export const billingMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema.alterTable('subscriptions').addColumn('stripe_customer_id', 'text').execute();
    await db.schema.alterTable('subscriptions').addColumn('stripe_subscription_id', 'text').execute();
    await db.schema.alterTable('subscriptions').addColumn('billing_status', 'text').execute();
    await db.schema
      .createIndex('subscriptions_stripe_customer_idx')
      .on('subscriptions')
      .column('stripe_customer_id')
      .unique()
      .execute();
    await db.schema
      .createTable('billing_events')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('created', int8, (col) => col.notNull())
      .addColumn('received_at', int8, (col) => col.notNull())
      .addColumn('payload', 'text', (col) => col.notNull())
      .addColumn('account_id', 'text')
      .addColumn('applied_at', int8)
      .addColumn('outcome', 'text')
      .execute();
  },
});
