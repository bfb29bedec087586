import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Login sessions of the web pages, and the web pages' server secrets (one row per name,
 * shared by every instance). Registered as `0050_web_sessions` in the platform's migration index.
 */
export const webSessionsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('web_sessions')
      .addColumn('id_hash', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('expires_at', int8, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('web_sessions_user_idx').on('web_sessions').column('user_id').execute();
    await db.schema.createIndex('web_sessions_expires_idx').on('web_sessions').column('expires_at').execute();
    await db.schema
      .createTable('web_secrets')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .execute();
  },
});
