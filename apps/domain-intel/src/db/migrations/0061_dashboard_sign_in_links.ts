import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/** One-time dashboard sign-in links (embedded mode prints them to the log); only the token's SHA-256 is kept. */
export const dashboardSignInLinksMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('dashboard_sign_in_links')
      .addColumn('id_hash', 'text', (col) => col.primaryKey())
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('expires_at', int8, (col) => col.notNull())
      .execute();
  },
});
