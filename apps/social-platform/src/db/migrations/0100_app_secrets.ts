import type { Dialect } from '@repo/server-kit';
import { type Kysely, type Migration, sql } from 'kysely';
import { int8Type } from './types.ts';

/**
 * What lets an app trust the platform and be told what happens to it: each app's secret (sealed,
 * see applications/secret-box.ts), whether token.php insists on a signed exchange, the callback URL
 * its events are posted to, those events with their delivery state, and the data deletion requests
 * users make of it.
 */
export const appSecretsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    // Null only for apps made before this migration: the context gives each of them a secret at start.
    await db.schema.alterTable('applications').addColumn('secret_sealed', 'text').execute();
    await db.schema
      .alterTable('applications')
      .addColumn('require_signed_exchange', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('applications').addColumn('callback_url', 'text').execute();
    await db.schema
      .createTable('app_events')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('app_id', 'integer', (col) => col.notNull().references('applications.id').onDelete('cascade'))
      .addColumn('type', 'text', (col) => col.notNull())
      .addColumn('payload', 'text', (col) => col.notNull())
      .addColumn('created_at', int8, (col) => col.notNull())
      /** pending (to send or retry), delivered, failed (retries given up), no_callback (no URL set). */
      .addColumn('state', 'text', (col) => col.notNull().defaultTo(sql`'pending'`))
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', int8, (col) => col.notNull())
      .addColumn('first_attempt_at', int8)
      .addColumn('last_attempt_at', int8)
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', int8)
      .execute();
    await db.schema.createIndex('app_events_due_idx').on('app_events').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('app_events_app_idx').on('app_events').columns(['app_id', 'created_at']).execute();
    await db.schema
      .createTable('data_deletion_requests')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('app_id', 'integer', (col) => col.notNull().references('applications.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      /** requested, in_progress, completed: what the app last reported. */
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('requested_at', int8, (col) => col.notNull())
      .addColumn('updated_at', int8, (col) => col.notNull())
      .execute();
  },
});
