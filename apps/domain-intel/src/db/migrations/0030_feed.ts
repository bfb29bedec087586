import type { Dialect } from '@repo/server-kit/database';
import { serialPrimaryKey } from '@repo/server-kit/migrations';
import { type Kysely, type Migration, sql } from 'kysely';
import { int8Type } from './types.ts';

/**
 * The dropped-domain pipeline: one denormalised feed row per domain in (or just out of) the
 * lifecycle, its transition history, the zone diffs applied, enrichment caches and job leases.
 *
 * The feed indexes lead with `status` because every feed query filters on one status, then
 * carry the sort column and `domain` (the tie-breaker) so a page at offset 10,000 is read
 * straight off the index. Postgres keeps NULLs last in descending indexes the way the
 * queries order; SQLite sorts NULLs lowest, so descending order puts them last by itself and
 * the ascending age order uses an expression index that maps NULL past every real time.
 */
export const feedMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    await db.schema
      .createTable('feed_domains')
      .addColumn('domain', 'text', (col) => col.primaryKey())
      .addColumn('tld', 'text', (col) => col.notNull())
      .addColumn('label', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('status_since', int8, (col) => col.notNull())
      .addColumn('left_zone_at', int8)
      .addColumn('zone_date', 'text')
      .addColumn('expected_drop_at', int8)
      .addColumn('next_check_at', int8)
      .addColumn('check_failures', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('last_checked_at', int8)
      .addColumn('dropped_at', int8)
      .addColumn('verified_at', int8)
      .addColumn('first_archived_at', int8)
      .addColumn('alt_tld_count', 'integer')
      .addColumn('alt_tlds', 'text')
      .addColumn('alt_tlds_date', 'text')
      .addColumn('da', 'integer')
      .addColumn('tf', 'integer')
      .addColumn('cf', 'integer')
      .addColumn('enrich_due_at', int8)
      .addColumn('length', 'integer', (col) => col.notNull())
      .addColumn('has_hyphen', 'integer', (col) => col.notNull())
      .addColumn('has_digit', 'integer', (col) => col.notNull())
      .addColumn('updated_at', int8, (col) => col.notNull())
      .execute();

    const nullsLast = dialect === 'postgres' ? sql` nulls last` : sql``;
    const descending = (column: string) => sql`${sql.ref(column)} desc${nullsLast}`;
    const feedIndexes: Record<string, ReturnType<typeof sql>> = {
      feed_status_dropped_idx: sql`status, ${descending('dropped_at')}, domain`,
      feed_status_tld_dropped_idx: sql`status, tld, ${descending('dropped_at')}, domain`,
      feed_status_da_idx: sql`status, ${descending('da')}, domain`,
      feed_status_tf_idx: sql`status, ${descending('tf')}, domain`,
      feed_status_alt_idx: sql`status, ${descending('alt_tld_count')}, domain`,
      feed_status_age_idx:
        dialect === 'postgres'
          ? sql`status, first_archived_at, domain`
          : sql`status, ifnull(first_archived_at, 9007199254740991), domain`,
      feed_dropped_idx: sql`${descending('dropped_at')}, domain`,
    };
    for (const [name, columns] of Object.entries(feedIndexes)) {
      await sql`create index ${sql.id(name)} on feed_domains (${columns})`.execute(db);
    }
    await db.schema.createIndex('feed_next_check_idx').on('feed_domains').column('next_check_at').execute();
    await db.schema.createIndex('feed_enrich_due_idx').on('feed_domains').column('enrich_due_at').execute();
    await db.schema.createIndex('feed_label_idx').on('feed_domains').column('label').execute();

    await db.schema
      .createTable('domain_transitions')
      .addColumn('id', serialPrimaryKey(dialect), (col) => col.primaryKey())
      .addColumn('domain', 'text', (col) => col.notNull())
      .addColumn('from_status', 'text', (col) => col.notNull())
      .addColumn('to_status', 'text', (col) => col.notNull())
      .addColumn('at', int8, (col) => col.notNull())
      .addColumn('evidence', 'text', (col) => col.notNull())
      /** Identifies the piece of evidence, so applying it twice records one transition. */
      .addColumn('evidence_key', 'text', (col) => col.notNull())
      .addColumn('detail', 'text')
      .addUniqueConstraint('domain_transitions_evidence_uq', ['domain', 'to_status', 'evidence_key'])
      .execute();
    await db.schema
      .createIndex('domain_transitions_domain_idx')
      .on('domain_transitions')
      .columns(['domain', 'at'])
      .execute();

    await db.schema
      .createTable('zone_diff_runs')
      .addColumn('tld', 'text', (col) => col.notNull())
      .addColumn('to_date', 'text', (col) => col.notNull())
      .addColumn('from_date', 'text', (col) => col.notNull())
      .addColumn('removed', 'integer', (col) => col.notNull())
      .addColumn('added', 'integer', (col) => col.notNull())
      .addColumn('completed_at', int8, (col) => col.notNull())
      .addPrimaryKeyConstraint('zone_diff_runs_pk', ['tld', 'to_date'])
      .execute();

    await db.schema
      .createTable('archive_captures')
      .addColumn('domain', 'text', (col) => col.primaryKey())
      .addColumn('first_captured_at', int8)
      .addColumn('checked_at', int8, (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('seo_metrics')
      .addColumn('domain', 'text', (col) => col.primaryKey())
      .addColumn('da', 'integer')
      .addColumn('tf', 'integer')
      .addColumn('cf', 'integer')
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('updated_at', int8, (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('job_leases')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('owner', 'text', (col) => col.notNull())
      .addColumn('acquired_at', int8, (col) => col.notNull())
      .addColumn('expires_at', int8, (col) => col.notNull())
      .execute();
  },
});
