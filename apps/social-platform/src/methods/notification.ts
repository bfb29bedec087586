import { NewCount, Notification, NotificationAdded } from '@repo/contracts/platform';
import { stringParam } from '../api/params.ts';
import { requireSelf, subjectOf, userIdParam } from './access.ts';
import { presentNotification } from './present.ts';
import { listMethod, singleMethod } from './registry.ts';

export const notificationMethods = [
  singleMethod({
    name: 'notification.getNewCount',
    permission: 'notifications',
    httpMethod: 'GET',
    summary: "Number of unseen notifications of the token's own user.",
    output: NewCount,
    params: { user_id: userIdParam },
    async handler({ ctx, caller, params }) {
      const subject = await subjectOf(ctx, caller, params.user_id);
      requireSelf(caller, subject, 'unseen notification count');
      return ctx.notifications.unseenCount(subject.id);
    },
  }),
  listMethod({
    name: 'notification.get',
    permission: 'notifications',
    httpMethod: 'GET',
    summary: "All notifications of the token's own user, newest first.",
    item: Notification,
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
  singleMethod({
    name: 'notification.add',
    permission: 'send_notifications',
    httpMethod: 'POST',
    summary:
      "Beyond the spec: notifies the token's own user (never anyone else). The link defaults to the app's canvas " +
      "page and the icon to the app's. Limited to APP_NOTIFICATION_LIMIT per app and user per window (429).",
    output: NotificationAdded,
    params: {
      message: stringParam(true, 'What happened, as the user reads it (at most 1000 characters).', { maxLength: 1000 }),
      link: stringParam(false, 'An http(s) URL or a /path on the platform; defaults to the app.', { maxLength: 2000 }),
    },
    async handler({ ctx, caller, params }) {
      await ctx.checkAppNotificationRate(`app:${caller.appId}:user:${caller.userId}`);
      const app = await ctx.apps.getById(caller.appId);
      const notification = await ctx.notifications.add(caller.userId, {
        message: params.message,
        link: params.link ?? `/apps/${app.id}`,
        icon: app.icon_url ?? undefined,
      });
      return { notification_id: notification.id };
    },
  }),
];
