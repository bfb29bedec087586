import { integerParam } from '../api/params.ts';
import type { ApiCaller } from '../auth/app-auth-service.ts';
import type { AppContext } from '../context.ts';
import { appError } from '../error-catalogue.ts';
import { sameWorld } from '../users/test-users.ts';
import { type User, userNotFound } from '../users/users-service.ts';

export const userIdParam = integerParam(false, "The user; omitted means the token's own user.");

/**
 * The user a call is about: `user_id`, or the token's user; 404 `user_not_found` if there is none.
 * Either row may be a moment old (USER_CACHE_TTL_MS, TOKEN_CACHE_TTL_MS: changes made by other instances).
 */
export function subjectOf(ctx: AppContext, caller: ApiCaller, userId: number | undefined): User | Promise<User> {
  if (userId === undefined || userId === caller.userId) return caller.user;
  return otherUser(ctx, caller, userId);
}

/**
 * Another user than the token's: 404 `user_not_found` when there is none, or when the two live in
 * different worlds (a real user and a test user, or test users of two apps: see users/test-users.ts).
 */
export async function otherUser(ctx: AppContext, caller: ApiCaller, userId: number): Promise<User> {
  const user = await ctx.users.getRecent(userId);
  // The same answer as for an id nobody has: to this caller the user does not exist.
  if (!sameWorld(caller.user, user)) throw userNotFound(userId);
  return user;
}

/** Private data (mail, notifications) is only ever given about the token's own user. */
export function requireSelf(caller: ApiCaller, subject: User, what: string): void {
  if (subject.id !== caller.userId) {
    throw appError('permission_denied', `Only the token's own user can see their ${what}.`);
  }
}

/** A friends list is seen by everyone, by friends only, or by its owner only, as the owner chose. */
export async function requireFriendsListVisible(ctx: AppContext, caller: ApiCaller, owner: User): Promise<void> {
  if (owner.id === caller.userId || owner.friends_visibility === 'public') return;
  if (owner.friends_visibility === 'friends' && (await ctx.friends.isFriend(owner.id, caller.userId))) return;
  throw appError('permission_denied', `${owner.full_name} does not share their friends list with you.`);
}
