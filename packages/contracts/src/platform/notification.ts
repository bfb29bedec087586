import { type Static, Type } from 'typebox';

/** An element of notification.get. */
export const Notification = Type.Object(
  {
    notification_id: Type.Integer({ minimum: 1 }),
    link: Type.String({ format: 'uri', description: 'Where the notification leads (absolute)' }),
    message: Type.String(),
    icon: Type.String({ format: 'uri', description: 'Icon of what sent it (absolute)' }),
  },
  { $id: 'Notification', description: 'A notification of the token’s own user' },
);
export type Notification = Static<typeof Notification>;

/** notification.add's answer (beyond the spec). */
export const NotificationAdded = Type.Object(
  { notification_id: Type.Integer({ minimum: 1 }) },
  { $id: 'NotificationAdded', description: 'The notification just added' },
);
export type NotificationAdded = Static<typeof NotificationAdded>;
