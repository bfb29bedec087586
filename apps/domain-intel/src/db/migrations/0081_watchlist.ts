import type { Dialect } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/**
 * Watched domains followed through the lifecycle: the TLD (tracked TLDs take zone and lifecycle
 * evidence), when the current status began (the expected drop of an untracked name counts from
 * it), and which lifecycle evidence (feed row status and status_since) was applied last.
 */
export const watchlistMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .alterTable('watched_domains')
      .addColumn('tld', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
    await db.schema.alterTable('watched_domains').addColumn('status_since', int8).execute();
    await db.schema.alterTable('watched_domains').addColumn('feed_seen_at', int8).execute();
    await db.schema.alterTable('watched_domains').addColumn('feed_seen_status', 'text').execute();
    await db.schema
      .createIndex('watched_domains_account_idx')
      .on('watched_domains')
      .columns(['account_id', 'created_at', 'domain'])
      .execute();
  },
});
