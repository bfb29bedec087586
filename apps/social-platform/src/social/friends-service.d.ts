import { type Clock } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import { type PageRequest, type PageResult } from '../db/paging.ts';
import type { DB } from '../db/schema.ts';
import type { User } from '../users/users-service.ts';
export type FriendRequestOutcome = 'requested' | 'accepted' | 'already_friends' | 'already_requested';
export interface IncomingRequest {
  user: User;
  createdAt: number;
}
/** Friend requests and symmetric friendships (stored as two rows, one per direction). */
export declare class FriendsService {
  private readonly db;
  private readonly clock;
  constructor(db: Kysely<DB>, clock: Clock);
  /** Asks `toUserId` to be friends; a request already waiting in the other direction is accepted instead. */
  request(fromUserId: number, toUserId: number): Promise<FriendRequestOutcome>;
  /** `userId` accepts the request `fromUserId` sent; 404 `friend_request_not_found` when there is none. */
  accept(userId: number, fromUserId: number): Promise<void>;
  decline(userId: number, fromUserId: number): Promise<void>;
  /** Makes two users friends at once (the CLI and the demo data). */
  befriend(a: number, b: number): Promise<void>;
  unfriend(a: number, b: number): Promise<void>;
  isFriend(a: number, b: number): Promise<boolean>;
  /** The friends of `userId`, by full name. */
  list(userId: number, page: PageRequest): Promise<PageResult<User>>;
  /** Requests waiting for `userId` to answer, newest first. */
  incomingRequests(userId: number): Promise<IncomingRequest[]>;
  /** Whether `fromUserId` has a request waiting for `toUserId`. */
  hasPendingRequest(fromUserId: number, toUserId: number): Promise<boolean>;
  private link;
}
