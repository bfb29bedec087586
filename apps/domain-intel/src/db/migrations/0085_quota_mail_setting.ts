import type { Kysely, Migration } from 'kysely';

/** Whether the account's owner gets the 80 % and 100 % quota mails (1, the default) or not (0). */
export const quotaMailSettingMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('accounts')
      .addColumn('quota_mails', 'integer', (col) => col.notNull().defaultTo(1))
      .execute();
  },
});
