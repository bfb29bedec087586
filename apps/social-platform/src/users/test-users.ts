import { randomBytes } from 'node:crypto';
import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { hashPassword } from './passwords.ts';
import { USER_COLUMNS } from './user-columns.ts';
import { type User, userNotFound } from './users-service.ts';

/**
 * Test users: synthetic users a developer creates for one app in its console, so that an app can be
 * tried without recruiting real people. Each lives in its app's own world: it reaches (befriends,
 * mails, sees through api.php) only the other test users of that app, and no real user reaches it
 * (it is never found by name or search, never signs in, and every service that joins two users
 * refuses a pair from two worlds as `user_not_found`, as if the other did not exist).
 */

/** The world a user lives in: null for real users, the app's id for its test users. */
export const worldOf = (user: Pick<User, 'test_app_id'>): number | null => user.test_app_id ?? null;

/** Whether `a` may reach `b`: both real, or both test users of one app. */
export const sameWorld = (a: Pick<User, 'test_app_id'>, b: Pick<User, 'test_app_id'>): boolean =>
  worldOf(a) === worldOf(b);

/**
 * Refuses a pair of users from two worlds (a real user and a test user, or test users of two
 * apps) as 404 `user_not_found` for `toUserId`: to each side the other does not exist. Users that
 * do not exist are left to the caller's own checks.
 */
export async function requireSameWorld(db: Kysely<DB>, fromUserId: number, toUserId: number): Promise<void> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'test_app_id'])
    .where('id', 'in', [fromUserId, toUserId])
    .execute();
  const from = rows.find((row) => row.id === fromUserId);
  const to = rows.find((row) => row.id === toUserId);
  if (from && to && !sameWorld(from, to)) {
    throw userNotFound(toUserId);
  }
}

/** Most test users one app may have. */
export const MAX_TEST_USERS_PER_APP = 50;

/** Creates and lists the test users of an app (the `users` rows are this folder's to write). */
export class TestUsersService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** A new test user of `appId`, named `fullName` (default "Test User N"). */
  async create(appId: number, fullName?: string): Promise<User> {
    const existing = await this.list(appId);
    if (existing.length >= MAX_TEST_USERS_PER_APP) {
      throw appError('invalid_user', `An app may have at most ${MAX_TEST_USERS_PER_APP} test users.`);
    }
    const name = (fullName ?? '').trim().slice(0, 100) || `Test User ${existing.length + 1}`;
    const handle = `test-${appId}-${randomBytes(5).toString('hex')}`;
    return this.db
      .insertInto('users')
      .values({
        user_name: handle,
        full_name: name,
        // RFC 2606 reserves .invalid: no mail to a test user ever leaves the platform.
        email: `${handle}@test-users.invalid`,
        // Never used: test users do not sign in. A real hash of random bytes, so no password matches it.
        password_hash: await hashPassword(randomBytes(32).toString('base64url')),
        country_iso: null,
        gender: null,
        joined: this.clock.now(),
        friends_visibility: 'public',
        test_app_id: appId,
      })
      .returning(USER_COLUMNS)
      .executeTakeFirstOrThrow();
  }

  /** The test users of `appId`, oldest first. */
  list(appId: number): Promise<User[]> {
    return this.db.selectFrom('users').select(USER_COLUMNS).where('test_app_id', '=', appId).orderBy('id').execute();
  }

  /** The test user `userId` of `appId`; 404 `user_not_found` for anyone else. */
  async get(appId: number, userId: number): Promise<User> {
    const user = Number.isSafeInteger(userId)
      ? await this.db
          .selectFrom('users')
          .select(USER_COLUMNS)
          .where('id', '=', userId)
          .where('test_app_id', '=', appId)
          .executeTakeFirst()
      : undefined;
    if (!user) throw appError('user_not_found', `App ${appId} has no test user ${userId}.`);
    return user;
  }
}
