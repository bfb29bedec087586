import type { DB } from './schema.ts';

/** The folders of src/ that keep data: each table below has exactly one of them as its writer. */
export type DataModule = 'applications' | 'auth' | 'callbacks' | 'photos' | 'social' | 'users' | 'web';

/** The web sessions' tables, typed in web/session-store.ts rather than in the schema. */
type WebTable = 'web_sessions' | 'web_secrets';

/**
 * Every table and the one module whose files write it (insert, update, delete); every other
 * module calls that module's functions. A table missing here, or one that is not in the schema,
 * is a type error; a write from any other folder fails scripts/test/table-owners.test.ts, which
 * also renders this table into docs/ARCHITECTURE.md.
 */
export const TABLE_OWNERS = {
  users: 'users',
  friend_requests: 'social',
  friendships: 'social',
  conversations: 'social',
  messages: 'social',
  notifications: 'social',
  photos: 'photos',
  photo_files: 'photos',
  applications: 'applications',
  app_testers: 'applications',
  app_usage: 'applications',
  app_grants: 'applications',
  app_keys: 'auth',
  api_tokens: 'auth',
  app_events: 'callbacks',
  data_deletion_requests: 'callbacks',
  web_sessions: 'web',
  web_secrets: 'web',
} as const satisfies Record<keyof DB | WebTable, DataModule>;
