import { type Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { type PageRequest, type PageResult } from '../db/paging.ts';
import type { DB, NotificationTable } from '../db/schema.ts';
export type Notification = Selectable<NotificationTable>;
declare const newNotificationSchema: z.ZodObject<
  {
    message: z.ZodString;
    link: z.ZodString;
    icon: z.ZodOptional<z.ZodString>;
  },
  z.core.$strip
>;
export type NewNotification = z.input<typeof newNotificationSchema>;
export declare class NotificationsService {
  private readonly db;
  private readonly clock;
  constructor(db: Kysely<DB>, clock: Clock);
  add(userId: number, input: NewNotification): Promise<Notification>;
  /** All notifications of `userId`, newest first. */
  list(userId: number, page: PageRequest): Promise<PageResult<Notification>>;
  /** Marks one notification of `userId` seen; 404 when it is not theirs. */
  markSeen(userId: number, notificationId: number): Promise<void>;
  markAllSeen(userId: number): Promise<number>;
  unseenCount(userId: number): Promise<number>;
}
