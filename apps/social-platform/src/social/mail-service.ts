import type { Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import { countRows, type PageRequest, type PageResult, pageOf } from '../db/paging.ts';
import type { DB, MessageTable } from '../db/schema.ts';
import { appError } from '../error-catalogue.ts';
import { requireSameWorld } from '../users/test-users.ts';
import { USER_COLUMNS } from '../users/user-columns.ts';
import type { User } from '../users/users-service.ts';

export const MAX_MESSAGE_LENGTH = 10_000;

export type Message = Selectable<MessageTable>;

export interface ConversationSummary {
  conversationId: number;
  otherUser: User;
  lastMessageAt: number;
  /** Messages in it that `userId` received and has not seen. */
  unseen: number;
}

/** Private mail: one conversation per pair of users, messages with a seen flag for the recipient. */
export class MailService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async send(fromUserId: number, toUserId: number, text: string): Promise<Message> {
    const body = text.trim();
    if (fromUserId === toUserId) throw appError('cannot_mail_self', 'You cannot send mail to yourself.');
    if (body.length === 0) throw appError('empty_message', 'The message is empty.');
    if (body.length > MAX_MESSAGE_LENGTH) {
      throw appError('message_too_long', `A message can be at most ${MAX_MESSAGE_LENGTH} characters.`);
    }
    await requireSameWorld(this.db, fromUserId, toUserId);
    const now = this.clock.now();
    const [low, high] = fromUserId < toUserId ? [fromUserId, toUserId] : [toUserId, fromUserId];
    return this.db.transaction().execute(async (trx) => {
      const conversation = await trx
        .insertInto('conversations')
        .values({ user_low: low, user_high: high, last_message_at: now })
        .onConflict((oc) => oc.columns(['user_low', 'user_high']).doUpdateSet({ last_message_at: now }))
        .returning('id')
        .executeTakeFirstOrThrow();
      return trx
        .insertInto('messages')
        .values({
          conversation_id: conversation.id,
          sender_id: fromUserId,
          recipient_id: toUserId,
          body,
          sent_at: now,
          seen: 0,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /** Conversations of `userId`, most recent first. */
  async listConversations(userId: number, page: PageRequest): Promise<PageResult<ConversationSummary>> {
    const mine = this.db
      .selectFrom('conversations')
      .where((eb) => eb.or([eb('user_low', '=', userId), eb('user_high', '=', userId)]));
    const { items: rows, total } = await pageOf(mine, page, (query) =>
      query
        .select((eb) => [
          'conversations.id',
          'conversations.user_low',
          'conversations.user_high',
          'conversations.last_message_at',
          eb
            .selectFrom('messages')
            .select((inner) => inner.fn.countAll<number>().as('n'))
            .whereRef('messages.conversation_id', '=', 'conversations.id')
            .where('messages.recipient_id', '=', userId)
            .where('messages.seen', '=', 0)
            .as('unseen'),
        ])
        .orderBy('last_message_at', 'desc')
        .orderBy('id', 'desc'),
    );
    const otherIds = rows.map((row) => (row.user_low === userId ? row.user_high : row.user_low));
    const others =
      otherIds.length === 0
        ? []
        : await this.db.selectFrom('users').select(USER_COLUMNS).where('id', 'in', otherIds).execute();
    const byId = new Map(others.map((user) => [user.id, user]));
    const items = rows.flatMap((row) => {
      const otherUser = byId.get(row.user_low === userId ? row.user_high : row.user_low);
      if (!otherUser) return [];
      return [
        { conversationId: row.id, otherUser, lastMessageAt: row.last_message_at, unseen: Number(row.unseen ?? 0) },
      ];
    });
    return { items, total };
  }

  /** Messages between `userId` and `otherUserId`, newest first. */
  async listMessages(userId: number, otherUserId: number, page: PageRequest): Promise<PageResult<Message>> {
    const conversationId = await this.conversationId(userId, otherUserId);
    if (conversationId === undefined) return { items: [], total: 0 };
    const messages = this.db.selectFrom('messages').where('conversation_id', '=', conversationId);
    return pageOf(messages, page, (query) => query.selectAll().orderBy('id', 'desc'));
  }

  /** Marks every message `userId` received from `otherUserId` as seen; returns how many changed. */
  async markSeen(userId: number, otherUserId: number): Promise<number> {
    const result = await this.db
      .updateTable('messages')
      .set({ seen: 1 })
      .where('recipient_id', '=', userId)
      .where('sender_id', '=', otherUserId)
      .where('seen', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async unseenCount(userId: number): Promise<number> {
    return countRows(this.db.selectFrom('messages').where('recipient_id', '=', userId).where('seen', '=', 0));
  }

  private async conversationId(a: number, b: number): Promise<number | undefined> {
    const [low, high] = a < b ? [a, b] : [b, a];
    const row = await this.db
      .selectFrom('conversations')
      .select('id')
      .where('user_low', '=', low)
      .where('user_high', '=', high)
      .executeTakeFirst();
    return row?.id;
  }
}
