import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * The request ids the SQL quota store counted in the last REQUEST_ID_SECONDS (a call the proxy
 * re-sent is not counted twice): one row per counted call with an id, written in the take's
 * transaction; rows past `expires_at` are swept.
 */
export const quotaRequestIdsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('quota_request_ids')
      .addColumn('account_id', 'text', (col) => col.notNull())
      .addColumn('request_id', 'text', (col) => col.notNull())
      .addColumn('expires_at', int8Type(dialect), (col) => col.notNull())
      .addPrimaryKeyConstraint('quota_request_ids_pk', ['account_id', 'request_id'])
      .execute();
    await db.schema.createIndex('quota_request_ids_expires_idx').on('quota_request_ids').column('expires_at').execute();
  },
});
