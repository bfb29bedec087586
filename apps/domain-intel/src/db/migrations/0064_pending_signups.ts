import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Sign-ups waiting for their address to be confirmed: one row per confirmation link sent (only
 * the SHA-256 of its token), so every link in the mailbox works until it expires; confirming one
 * creates the account and removes them all. Nothing here reserves the address.
 */
export const pendingSignupsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('pending_signups')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('expires_at', int8, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('pending_signups_email_idx').on('pending_signups').column('email').execute();
    await db.schema.createIndex('pending_signups_expiry_idx').on('pending_signups').column('expires_at').execute();
  },
});
