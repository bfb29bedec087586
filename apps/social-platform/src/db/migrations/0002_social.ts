import { type Dialect, serialPrimaryKey } from '@repo/server-kit';
import type { Kysely, Migration } from 'kysely';
import { int8Type } from './types.ts';

/** Friendships and requests, two-person conversations with their messages, notifications. */
export const socialMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const int8 = int8Type(dialect);
    const userRef = 'users.id';
    await db.schema
      .createTable('friend_requests')
      .addColumn('from_user_id', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('to_user_id', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('created_at', int8, (col) => col.notNull())
      .addPrimaryKeyConstraint('friend_requests_pk', ['from_user_id', 'to_user_id'])
      .execute();
    await db.schema.createIndex('friend_requests_to_idx').on('friend_requests').column('to_user_id').execute();
    await db.schema
      .createTable('friendships')
      .addColumn('user_id', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('friend_id', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('since', int8, (col) => col.notNull())
      .addPrimaryKeyConstraint('friendships_pk', ['user_id', 'friend_id'])
      .execute();
    await db.schema
      .createTable('conversations')
      .addColumn('id', serialPrimaryKey(dialect), (col) => col.primaryKey())
      .addColumn('user_low', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('user_high', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('last_message_at', int8, (col) => col.notNull())
      .addUniqueConstraint('conversations_pair_unique', ['user_low', 'user_high'])
      .execute();
    await db.schema.createIndex('conversations_high_idx').on('conversations').column('user_high').execute();
    await db.schema
      .createTable('messages')
      .addColumn('id', serialPrimaryKey(dialect), (col) => col.primaryKey())
      .addColumn('conversation_id', 'integer', (col) =>
        col.notNull().references('conversations.id').onDelete('cascade'),
      )
      .addColumn('sender_id', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('recipient_id', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('sent_at', int8, (col) => col.notNull())
      .addColumn('seen', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('messages_conversation_idx')
      .on('messages')
      .columns(['conversation_id', 'id'])
      .execute();
    await db.schema.createIndex('messages_unseen_idx').on('messages').columns(['recipient_id', 'seen']).execute();
    await db.schema
      .createTable('notifications')
      .addColumn('id', serialPrimaryKey(dialect), (col) => col.primaryKey())
      .addColumn('user_id', 'integer', (col) => col.notNull().references(userRef).onDelete('cascade'))
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('link', 'text', (col) => col.notNull())
      .addColumn('icon', 'text')
      .addColumn('seen', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', int8, (col) => col.notNull())
      .execute();
    await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();
  },
});
