import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Bulk availability jobs: one row per job (its status and counts) and one per distinct entry of
 * its list, in the order given. An item's `result` (the /v1/check record as JSON) is written as
 * soon as it is decided, so a worker that dies mid-job leaves exactly the undecided items to the
 * next one; `position` is the cursor it resumes from. `status` repeats the result's (the completion
 * event's counts are one GROUP BY, not a parse of every result).
 */
export const bulkChecksMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('bulk_checks')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('total', 'integer', (col) => col.notNull())
      .addColumn('done', 'integer', (col) => col.notNull())
      .addColumn('invalid', 'integer', (col) => col.notNull())
      .addColumn('duplicates', 'integer', (col) => col.notNull())
      .addColumn('created_at', int8, (col) => col.notNull())
      .addColumn('started_at', int8)
      .addColumn('finished_at', int8)
      .addColumn('error', 'text')
      .execute();
    await db.schema
      .createIndex('bulk_checks_account_idx')
      .on('bulk_checks')
      .columns(['account_id', 'created_at'])
      .execute();
    await db.schema.createIndex('bulk_checks_status_idx').on('bulk_checks').columns(['status', 'created_at']).execute();
    await db.schema
      .createTable('bulk_check_items')
      .addColumn('job_id', 'text', (col) => col.notNull().references('bulk_checks.id').onDelete('cascade'))
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('domain', 'text', (col) => col.notNull())
      .addColumn('status', 'text')
      .addColumn('result', 'text')
      .addPrimaryKeyConstraint('bulk_check_items_pk', ['job_id', 'position'])
      .execute();
  },
});
