import { requireSelf, subjectOf, userIdParam } from './access.ts';
import { presentNotification } from './present.ts';
import { listMethod, singleMethod } from './registry.ts';

export const notificationMethods = [
  singleMethod({
    name: 'notification.getNewCount',
    httpMethod: 'GET',
    summary: "Number of unseen notifications of the token's own user.",
    output: 'integer',
    params: { user_id: userIdParam },
    async handler({ ctx, caller, params }) {
      const subject = await subjectOf(ctx, caller, params.user_id);
      requireSelf(caller, subject, 'unseen notification count');
      return ctx.notifications.unseenCount(subject.id);
    },
  }),
  listMethod({
    name: 'notification.get',
    httpMethod: 'GET',
    summary: "All notifications of the token's own user, newest first.",
    output: 'array of Notification records {notification_id, link, message, icon}',
    params: { user_id: userIdParam },
    async handler({ ctx, caller, params, page }) {
      const subject = await subjectOf(ctx, caller, params.user_id);
      requireSelf(caller, subject, 'notifications');
      const notifications = await ctx.notifications.list(subject.id, { page, perPage: 10 });
      return {
        items: notifications.items.map((notification) => presentNotification(ctx, notification)),
        total: notifications.total,
      };
    },
  }),
];
