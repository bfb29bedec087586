import { type Dialect, serialPrimaryKey } from '@repo/server-kit';
import { type Kysely, type Migration, sql } from 'kysely';
import { int8Type } from './types.ts';

/** Third-party applications, the one-time keys handed to them and the tokens they trade them for. */
export const applicationsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('applications')
      .addColumn('id', serialPrimaryKey(dialect), (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('canvas_url', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull().defaultTo(sql`'active'`))
      .addColumn('created_at', int8, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('applications_name_idx').on('applications').column('name').execute();
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('app_id', 'integer', (col) => col.notNull().references('applications.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('expires_at', int8, (col) => col.notNull())
      .addColumn('revoked_at', int8)
      .execute();
    await db.schema.createIndex('api_tokens_app_user_idx').on('api_tokens').columns(['app_id', 'user_id']).execute();
    await db.schema
      .createTable('app_keys')
      .addColumn('id', serialPrimaryKey(dialect), (col) => col.primaryKey())
      .addColumn('key_hash', 'text', (col) => col.notNull().unique())
      .addColumn('app_id', 'integer', (col) => col.notNull().references('applications.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('expires_at', int8, (col) => col.notNull())
      .addColumn('used_at', int8)
      .addColumn('token_id', 'text')
      .execute();
    await db.schema.createIndex('app_keys_expires_idx').on('app_keys').column('expires_at').execute();
  },
});
