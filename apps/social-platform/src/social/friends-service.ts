import type { Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import { type PageRequest, type PageResult, pageOf } from '../db/paging.ts';
import type { DB } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { requireSameWorld } from '../users/test-users.ts';
import { QUALIFIED_USER_COLUMNS } from '../users/user-columns.ts';
import type { User } from '../users/users-service.ts';

export type FriendRequestOutcome = 'requested' | 'accepted' | 'already_friends' | 'already_requested';

export interface IncomingRequest {
  user: User;
  createdAt: number;
}

/** Friend requests and symmetric friendships (stored as two rows, one per direction). */
export class FriendsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** Asks `toUserId` to be friends; a request already waiting in the other direction is accepted instead. */
  async request(fromUserId: number, toUserId: number): Promise<FriendRequestOutcome> {
    if (fromUserId === toUserId) throw appError('cannot_befriend_self', 'You cannot befriend yourself.');
    await requireSameWorld(this.db, fromUserId, toUserId);
    return this.db.transaction().execute(async (trx) => {
      if (await isFriendIn(trx, fromUserId, toUserId)) return 'already_friends';
      const reverse = await trx
        .deleteFrom('friend_requests')
        .where('from_user_id', '=', toUserId)
        .where('to_user_id', '=', fromUserId)
        .executeTakeFirst();
      if (Number(reverse.numDeletedRows) > 0) {
        await this.link(trx, fromUserId, toUserId);
        return 'accepted';
      }
      const inserted = await trx
        .insertInto('friend_requests')
        .values({ from_user_id: fromUserId, to_user_id: toUserId, created_at: this.clock.now() })
        .onConflict((oc) => oc.columns(['from_user_id', 'to_user_id']).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? 'requested' : 'already_requested';
    });
  }

  /** `userId` accepts the request `fromUserId` sent; 404 `friend_request_not_found` when there is none. */
  async accept(userId: number, fromUserId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('friend_requests')
        .where('from_user_id', '=', fromUserId)
        .where('to_user_id', '=', userId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw requestNotFound();
      await this.link(trx, userId, fromUserId);
    });
  }

  async decline(userId: number, fromUserId: number): Promise<void> {
    const deleted = await this.db
      .deleteFrom('friend_requests')
      .where('from_user_id', '=', fromUserId)
      .where('to_user_id', '=', userId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw requestNotFound();
  }

  /** Makes two users friends at once (the CLI and the demo data). */
  async befriend(a: number, b: number): Promise<void> {
    if (a === b) throw appError('cannot_befriend_self', 'You cannot befriend yourself.');
    await requireSameWorld(this.db, a, b);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('friend_requests')
        .where((eb) =>
          eb.or([
            eb.and([eb('from_user_id', '=', a), eb('to_user_id', '=', b)]),
            eb.and([eb('from_user_id', '=', b), eb('to_user_id', '=', a)]),
          ]),
        )
        .execute();
      await this.link(trx, a, b);
    });
  }

  async unfriend(a: number, b: number): Promise<void> {
    await this.db
      .deleteFrom('friendships')
      .where((eb) =>
        eb.or([
          eb.and([eb('user_id', '=', a), eb('friend_id', '=', b)]),
          eb.and([eb('user_id', '=', b), eb('friend_id', '=', a)]),
        ]),
      )
      .execute();
  }

  isFriend(a: number, b: number): Promise<boolean> {
    return isFriendIn(this.db, a, b);
  }

  /** The friends of `userId`, by full name. */
  async list(userId: number, page: PageRequest): Promise<PageResult<User>> {
    const friends = this.db
      .selectFrom('friendships')
      .innerJoin('users', 'users.id', 'friendships.friend_id')
      .where('friendships.user_id', '=', userId);
    return pageOf(friends, page, (query) =>
      query.select(QUALIFIED_USER_COLUMNS).orderBy('users.full_name').orderBy('users.id'),
    );
  }

  /** Requests waiting for `userId` to answer, newest first. */
  async incomingRequests(userId: number): Promise<IncomingRequest[]> {
    const rows = await this.db
      .selectFrom('friend_requests')
      .innerJoin('users', 'users.id', 'friend_requests.from_user_id')
      .select([...QUALIFIED_USER_COLUMNS, 'friend_requests.created_at'])
      .where('friend_requests.to_user_id', '=', userId)
      .orderBy('friend_requests.created_at', 'desc')
      .execute();
    return rows.map(({ created_at, ...user }) => ({ user, createdAt: created_at }));
  }

  /** Whether `fromUserId` has a request waiting for `toUserId`. */
  async hasPendingRequest(fromUserId: number, toUserId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('friend_requests')
      .select('created_at')
      .where('from_user_id', '=', fromUserId)
      .where('to_user_id', '=', toUserId)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async link(trx: Kysely<DB>, a: number, b: number): Promise<void> {
    const since = this.clock.now();
    await trx
      .insertInto('friendships')
      .values([
        { user_id: a, friend_id: b, since },
        { user_id: b, friend_id: a, since },
      ])
      .onConflict((oc) => oc.columns(['user_id', 'friend_id']).doNothing())
      .execute();
  }
}

async function isFriendIn(db: Kysely<DB>, a: number, b: number): Promise<boolean> {
  const row = await db
    .selectFrom('friendships')
    .select('since')
    .where('user_id', '=', a)
    .where('friend_id', '=', b)
    .executeTakeFirst();
  return row !== undefined;
}

const requestNotFound = () => appError('friend_request_not_found', 'There is no friend request from this user.');
