import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Account notices mailed (quota at 80 % and 100 %, subscription ending, payment failed), one row
 * per notice by its dedupe key, so each goes once however many instances or deliveries see it.
 */
export const sentNoticesMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('sent_notices')
      .addColumn('dedupe_key', 'text', (col) => col.primaryKey())
      .addColumn('account_id', 'text', (col) => col.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('sent_at', int8, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sent_notices_sent_at_idx').on('sent_notices').column('sent_at').execute();
  },
});
