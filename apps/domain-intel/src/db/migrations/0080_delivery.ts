import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Saved filters, delivery targets, the delivery outbox and watchlists.
 *
 * The outbox is three tables. `delivery_messages` holds each message once, with the exact
 * body every attempt sends (a redelivery resends the same id and bytes). `filter_matches`
 * records which message carried each (filter, domain, lifecycle episode): its primary key is
 * what makes a row go to a filter at most once, and it is written in the same transaction as
 * the message. `deliveries` is one row per message and target: its attempts, back-off and
 * status.
 */
export const deliveryMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('saved_filters')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('query', 'text', (col) => col.notNull())
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('matched_through', int8, (col) => col.notNull())
      .addColumn('next_sequence', 'integer', (col) => col.notNull().defaultTo(1))
      .addUniqueConstraint('saved_filters_name_uq', ['account_id', 'name'])
      .execute();

    await db.schema
      .createTable('delivery_targets')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('address', 'text', (col) => col.notNull())
      .addColumn('secret', 'text')
      .addColumn('pinned_host_key', 'text')
      .addColumn('created_at', int8, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('delivery_targets_account_idx').on('delivery_targets').column('account_id').execute();

    await db.schema
      .createTable('saved_filter_targets')
      .addColumn('filter_id', 'text', (col) => col.notNull().references('saved_filters.id').onDelete('cascade'))
      .addColumn('target_id', 'text', (col) => col.notNull().references('delivery_targets.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('saved_filter_targets_pk', ['filter_id', 'target_id'])
      .execute();

    await db.schema
      .createTable('delivery_messages')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('filter_id', 'text', (col) => col.references('saved_filters.id').onDelete('set null'))
      .addColumn('sequence', 'integer')
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('payload', 'text', (col) => col.notNull())
      .addColumn('rows', 'integer', (col) => col.notNull())
      .addColumn('dedupe_key', 'text', (col) => col.unique())
      .addColumn('created_at', int8, (col) => col.notNull())
      .addUniqueConstraint('delivery_messages_sequence_uq', ['filter_id', 'sequence'])
      .execute();
    await db.schema
      .createIndex('delivery_messages_account_idx')
      .on('delivery_messages')
      .columns(['account_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('filter_matches')
      .addColumn('filter_id', 'text', (col) => col.notNull().references('saved_filters.id').onDelete('cascade'))
      .addColumn('domain', 'text', (col) => col.notNull())
      /** The lifecycle episode: when the name left the zone, so a name that drops again next year is new. */
      .addColumn('episode', int8, (col) => col.notNull())
      .addColumn('message_id', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('filter_matches_pk', ['filter_id', 'domain', 'episode'])
      .execute();

    await db.schema
      .createTable('deliveries')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('message_id', 'text', (col) => col.notNull().references('delivery_messages.id').onDelete('cascade'))
      .addColumn('target_id', 'text', (col) => col.references('delivery_targets.id').onDelete('set null'))
      .addColumn('account_id', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', int8)
      .addColumn('first_attempt_at', int8)
      .addColumn('last_attempt_at', int8)
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', int8)
      .addColumn('created_at', int8, (col) => col.notNull())
      .addUniqueConstraint('deliveries_message_target_uq', ['message_id', 'target_id'])
      .execute();
    await db.schema.createIndex('deliveries_due_idx').on('deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema
      .createIndex('deliveries_account_idx')
      .on('deliveries')
      .columns(['account_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('watched_domains')
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('domain', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('expected_drop_at', int8)
      .addColumn('evidence', 'text')
      .addColumn('checked_at', int8)
      .addColumn('next_check_at', int8, (col) => col.notNull())
      .addColumn('check_failures', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', int8, (col) => col.notNull())
      .addPrimaryKeyConstraint('watched_domains_pk', ['account_id', 'domain'])
      .execute();
    await db.schema.createIndex('watched_domains_due_idx').on('watched_domains').column('next_check_at').execute();
    await db.schema.createIndex('watched_domains_domain_idx').on('watched_domains').column('domain').execute();

    // Matching reads the feed rows a pipeline run changed.
    await db.schema.createIndex('feed_updated_idx').on('feed_domains').column('updated_at').execute();
  },
});
