import type { AppContext } from '../context.ts';
import type { User } from '../users/users-service.ts';

/**
 * The notifications the web pages create: a friend request, an accepted request, new mail.
 * Links are platform paths, so they work behind any PUBLIC_URL.
 */
export const notify = {
  friendRequest: (ctx: AppContext, from: User, toUserId: number) =>
    ctx.notifications.add(toUserId, { message: `${from.full_name} wants to be your friend.`, link: '/friends' }),
  requestAccepted: (ctx: AppContext, by: User, toUserId: number) =>
    ctx.notifications.add(toUserId, {
      message: `${by.full_name} accepted your friend request.`,
      link: `/u/${by.user_name}`,
    }),
  mail: (ctx: AppContext, from: User, toUserId: number) =>
    ctx.notifications.add(toUserId, {
      message: `${from.full_name} sent you a message.`,
      link: `/mail/${from.user_name}`,
    }),
};
