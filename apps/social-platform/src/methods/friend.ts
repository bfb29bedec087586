import { Friend, FriendshipCheck } from '@repo/contracts/platform';
import { integerParam } from '../api/params.ts';
import { otherUser, requireFriendsListVisible, subjectOf, userIdParam } from './access.ts';
import { presentFriends } from './present.ts';
import { listMethod, singleMethod } from './registry.ts';

export const friendMethods = [
  listMethod({
    name: 'friend.getFriends',
    permission: 'friends',
    httpMethod: 'GET',
    summary: "Friends of a user (User records without email), if that user's friends list is visible to you.",
    item: Friend,
    params: { user_id: userIdParam },
    async handler({ ctx, caller, params, page }) {
      const subject = await subjectOf(ctx, caller, params.user_id);
      await requireFriendsListVisible(ctx, caller, subject);
      const friends = await ctx.friends.list(subject.id, { page, perPage: 10 });
      // E-mail is never part of a friends list, not even the caller's own (they are not in it).
      return { items: await presentFriends(ctx, friends.items), total: friends.total };
    },
  }),
  singleMethod({
    name: 'friend.isFriend',
    permission: 'friends',
    httpMethod: 'GET',
    summary: 'Whether two users are friends.',
    output: FriendshipCheck,
    params: { user_id: userIdParam, friend_user_id: integerParam(true, 'The other user.') },
    async handler({ ctx, caller, params }) {
      const subject = await subjectOf(ctx, caller, params.user_id);
      const other =
        params.friend_user_id === caller.userId ? caller.user : await otherUser(ctx, caller, params.friend_user_id);
      // Asking about two other people reveals part of a friends list: the same rule applies.
      if (subject.id !== caller.userId && other.id !== caller.userId) {
        await requireFriendsListVisible(ctx, caller, subject);
      }
      const friends = await ctx.friends.isFriend(subject.id, other.id);
      return { is_friend: friends ? 1 : 0 } as const;
    },
  }),
];
