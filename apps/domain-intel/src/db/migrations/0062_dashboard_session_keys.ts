import type { Kysely, Migration } from 'kysely';

/**
 * A dashboard session remembers the API key it was opened with (null for a sign-in link), so
 * rotating or revoking that key ends it; sessions are found by account for "sign out everywhere".
 */
export const dashboardSessionKeysMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('dashboard_sessions').addColumn('key_id', 'text').execute();
    await db.schema
      .createIndex('dashboard_sessions_account_idx')
      .on('dashboard_sessions')
      .column('account_id')
      .execute();
  },
});
