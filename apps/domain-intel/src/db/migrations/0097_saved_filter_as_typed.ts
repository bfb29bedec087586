import type { Kysely, Migration } from 'kysely';

/**
 * A saved filter as its owner typed it (`min_da=20&tld=com`), beside the canonical query it is
 * matched by (`tld=com&min_da=20`): the dashboard shows what was typed. Null for filters saved
 * before, and for those given as a JSON object (their canonical query is what they look like).
 */
export const savedFilterAsTypedMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('saved_filters').addColumn('as_typed', 'text').execute();
  },
});
