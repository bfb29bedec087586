import type { Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { countRows, type PageRequest, type PageResult, pageOf } from '../db/paging.ts';
import { isRowId } from '../db/row-id.ts';
import type { DB, NotificationTable } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { invalidInput } from '../users/users-service.ts';

export type Notification = Selectable<NotificationTable>;

const newNotificationSchema = z.object({
  message: z.string().trim().min(1, 'is required').max(1000, 'must be at most 1000 characters'),
  /** Absolute http(s) URL, or a path on the platform (`/mail`). */
  link: z
    .string()
    .trim()
    .max(2000)
    .refine((value) => /^https?:\/\//.test(value) || /^\/(?!\/)/.test(value), 'must be an http(s) URL or a /path'),
  icon: z
    .string()
    .trim()
    .max(2000)
    .refine((value) => /^https?:\/\//.test(value) || /^\/(?!\/)/.test(value), 'must be an http(s) URL or a /path')
    .optional(),
});

export type NewNotification = z.input<typeof newNotificationSchema>;

export class NotificationsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async add(userId: number, input: NewNotification): Promise<Notification> {
    const parsed = newNotificationSchema.safeParse(input);
    if (!parsed.success) throw invalidInput('invalid_notification', parsed.error);
    return this.db
      .insertInto('notifications')
      .values({
        user_id: userId,
        message: parsed.data.message,
        link: parsed.data.link,
        icon: parsed.data.icon ?? null,
        seen: 0,
        created_at: this.clock.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** All notifications of `userId`, newest first. */
  async list(userId: number, page: PageRequest): Promise<PageResult<Notification>> {
    const mine = this.db.selectFrom('notifications').where('user_id', '=', userId);
    return pageOf(mine, page, (query) => query.selectAll().orderBy('id', 'desc'));
  }

  /** Marks one notification of `userId` seen; 404 when it is not theirs. */
  async markSeen(userId: number, notificationId: number): Promise<void> {
    if (!isRowId(notificationId)) throw notificationNotFound();
    const result = await this.db
      .updateTable('notifications')
      .set({ seen: 1 })
      .where('id', '=', notificationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notificationNotFound();
  }

  async markAllSeen(userId: number): Promise<number> {
    const result = await this.db
      .updateTable('notifications')
      .set({ seen: 1 })
      .where('user_id', '=', userId)
      .where('seen', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async unseenCount(userId: number): Promise<number> {
    return countRows(this.db.selectFrom('notifications').where('user_id', '=', userId).where('seen', '=', 0));
  }
}

const notificationNotFound = () => appError('notification_not_found', 'There is no such notification.');
