import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/** Sign-ins to the account dashboard: one row per browser session, looked up by the hash of its cookie. */
export const dashboardSessionsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('dashboard_sessions')
      .addColumn('id_hash', 'text', (col) => col.primaryKey())
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('expires_at', int8, (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('dashboard_sessions_expiry_idx')
      .on('dashboard_sessions')
      .column('expires_at')
      .execute();
  },
});
