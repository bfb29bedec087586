import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * One row whose `version` goes up whenever the pipeline has changed the feed, so every API
 * process can tell with one primary-key read that its in-memory feed index is out of date.
 */
export const feedVersionMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('feed_version')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('version', int8Type(dialect), (col) => col.notNull())
      .execute();
    await db
      .insertInto('feed_version' as never)
      .values({ id: 1, version: 0 } as never)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('feed_version').execute();
  },
});
