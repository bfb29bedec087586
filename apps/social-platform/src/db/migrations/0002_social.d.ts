import { type Dialect } from '@repo/server-kit';
import type { Migration } from 'kysely';
/** Friendships and requests, two-person conversations with their messages, notifications. */
export declare const socialMigration: (dialect: Dialect) => Migration;
