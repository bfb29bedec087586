import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

export const accountsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('email', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', int8, (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('subscriptions')
      .addColumn('account_id', 'text', (col) => col.primaryKey().references('accounts.id').onDelete('cascade'))
      .addColumn('plan', 'text', (col) => col.notNull())
      .addColumn('period_start', int8, (col) => col.notNull())
      .addColumn('period_end', int8)
      .addColumn('cancelled_at', int8)
      .addColumn('updated_at', int8, (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('prefix', 'text', (col) => col.notNull())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('last_used_at', int8)
      .addColumn('revoked_at', int8)
      .execute();
    await db.schema.createIndex('api_keys_account_idx').on('api_keys').column('account_id').execute();
    await db.schema
      .createTable('quota_usage')
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('used', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('quota_usage_pk', ['account_id', 'day'])
      .execute();
  },
});
