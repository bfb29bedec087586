import type { Kysely, Migration } from 'kysely';

/**
 * Test users: synthetic users a developer creates for one app in the console. `users.test_app_id`
 * names that app (null: a real user). No foreign key: deleting an app must not be blocked by its test
 * users, and a test user of a deleted app reaches nobody anyway. Registered as `0120_test_users`.
 */
export const testUsersMigration = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('test_app_id', 'integer').execute();
    await db.schema.createIndex('users_test_app_idx').on('users').column('test_app_id').execute();
  },
});
