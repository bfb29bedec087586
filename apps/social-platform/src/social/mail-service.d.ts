import { type Clock } from '@repo/server-kit';
import type { Kysely, Selectable } from 'kysely';
import { type PageRequest, type PageResult } from '../db/paging.ts';
import type { DB, MessageTable } from '../db/schema.ts';
import type { User } from '../users/users-service.ts';
export declare const MAX_MESSAGE_LENGTH = 10000;
export type Message = Selectable<MessageTable>;
export interface ConversationSummary {
  conversationId: number;
  otherUser: User;
  lastMessageAt: number;
  /** Messages in it that `userId` received and has not seen. */
  unseen: number;
}
/** Private mail: one conversation per pair of users, messages with a seen flag for the recipient. */
export declare class MailService {
  private readonly db;
  private readonly clock;
  constructor(db: Kysely<DB>, clock: Clock);
  send(fromUserId: number, toUserId: number, text: string): Promise<Message>;
  /** Conversations of `userId`, most recent first. */
  listConversations(userId: number, page: PageRequest): Promise<PageResult<ConversationSummary>>;
  /** Messages between `userId` and `otherUserId`, newest first. */
  listMessages(userId: number, otherUserId: number, page: PageRequest): Promise<PageResult<Message>>;
  /** Marks every message `userId` received from `otherUserId` as seen; returns how many changed. */
  markSeen(userId: number, otherUserId: number): Promise<number>;
  unseenCount(userId: number): Promise<number>;
  private conversationId;
}
