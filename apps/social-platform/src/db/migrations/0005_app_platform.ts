import type { Dialect } from '@repo/server-kit';
import { type Kysely, type Migration, sql } from 'kysely';
import { int8Type } from './types.ts';

/**
 * What makes the app platform trustworthy: each app's description, icon, permissions and
 * development mode; the permissions each user granted each app; an app's testers; and the
 * daily usage per method that its developer sees.
 */
export const appPlatformMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .alterTable('applications')
      .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
    await db.schema.alterTable('applications').addColumn('icon_url', 'text').execute();
    // Apps registered before permissions existed keep working with what they could do then.
    await db.schema
      .alterTable('applications')
      .addColumn('permissions', 'text', (col) =>
        col.notNull().defaultTo(sql`'basic_profile,email,friends,mail_count,notifications,photos_read,photos_upload'`),
      )
      .execute();
    // Existing apps are in the directory already; new ones start in development mode.
    await db.schema
      .alterTable('applications')
      .addColumn('published', 'integer', (col) => col.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createTable('app_grants')
      .addColumn('app_id', 'integer', (col) => col.notNull().references('applications.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('permissions', 'text', (col) => col.notNull())
      .addColumn('granted_at', int8, (col) => col.notNull())
      .addPrimaryKeyConstraint('app_grants_pk', ['app_id', 'user_id'])
      .execute();
    await db.schema.createIndex('app_grants_user_idx').on('app_grants').column('user_id').execute();
    await db.schema
      .createTable('app_testers')
      .addColumn('app_id', 'integer', (col) => col.notNull().references('applications.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('app_testers_pk', ['app_id', 'user_id'])
      .execute();
    await db.schema
      .createTable('app_usage')
      .addColumn('app_id', 'integer', (col) => col.notNull().references('applications.id').onDelete('cascade'))
      /** UTC day, YYYY-MM-DD. */
      .addColumn('day', 'text', (col) => col.notNull())
      .addColumn('method', 'text', (col) => col.notNull())
      .addColumn('calls', 'integer', (col) => col.notNull())
      .addColumn('errors', 'integer', (col) => col.notNull())
      .addColumn('last_error_code', 'text')
      .addPrimaryKeyConstraint('app_usage_pk', ['app_id', 'day', 'method'])
      .execute();
  },
});
