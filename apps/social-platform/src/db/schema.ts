/**
 * Kysely table types. Times are epoch milliseconds (int8 in Postgres, integer in SQLite),
 * booleans are 0/1 integers: one representation that both engines store alike.
 */
import type { Generated } from 'kysely';

/** Who may see a user's friends list, or a photo: everyone, friends only, or the owner only. */
export type Visibility = 'public' | 'friends' | 'private';

export interface UserTable {
  id: Generated<number>;
  /** URL-safe handle, lower case, unique. */
  user_name: string;
  full_name: string;
  /** Lower-cased, unique. */
  email: string;
  /** `scrypt$N$r$p$salt$hash`, see users/passwords.ts. */
  password_hash: string;
  country_iso: string | null;
  gender: string | null;
  joined: number;
  /** The profile picture: a photo of kind `profile`. */
  picture_photo_id: number | null;
  friends_visibility: Visibility;
  /** A test user's app (console-made, reaches only that app's other test users); null for a real user. */
  test_app_id: number | null;
}

export interface FriendRequestTable {
  from_user_id: number;
  to_user_id: number;
  created_at: number;
}

/** One row per direction, so a friendship {a, b} is (a, b) and (b, a). */
export interface FriendshipTable {
  user_id: number;
  friend_id: number;
  since: number;
}

/** A conversation between two users; `user_low` < `user_high`. */
export interface ConversationTable {
  id: Generated<number>;
  user_low: number;
  user_high: number;
  last_message_at: number;
}

export interface MessageTable {
  id: Generated<number>;
  conversation_id: number;
  sender_id: number;
  recipient_id: number;
  body: string;
  sent_at: number;
  seen: number;
}

export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  message: string;
  link: string;
  icon: string | null;
  seen: number;
  created_at: number;
}

export type PhotoKind = 'photo' | 'profile';

export interface PhotoTable {
  id: Generated<number>;
  owner_id: number;
  kind: PhotoKind;
  name: string;
  visibility: Visibility;
  created_at: number;
}

/** One stored file of a photo: its original or one size. */
export interface PhotoFileTable {
  photo_id: number;
  /** `original`, `75px`, … or for profile pictures `50px_square`. */
  size: string;
  storage_key: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
}

export type ApplicationStatus = 'active' | 'disabled';

export interface ApplicationTable {
  /** The APP ID. */
  id: Generated<number>;
  name: string;
  owner_id: number;
  canvas_url: string;
  status: ApplicationStatus;
  created_at: number;
  description: Generated<string>;
  icon_url: string | null;
  /** Comma-separated permission names, see applications/permissions.ts. */
  permissions: string;
  /** 0: development mode (only the developer and testers may open it); 1: in the directory. */
  published: number;
  /** The app secret, sealed (applications/secret-box.ts); null only until the context's start gives one. */
  secret_sealed: string | null;
  /** 1: token.php refuses an exchange without a valid `sig`. */
  require_signed_exchange: Generated<number>;
  /** Where the app's events are posted (Standard Webhooks); null: none are sent. */
  callback_url: string | null;
}

/** The permissions a user granted an app on its consent page (or `keys issue`). */
export interface AppGrantTable {
  app_id: number;
  user_id: number;
  permissions: string;
  granted_at: number;
}

/** People a developer lets open an app still in development mode. */
export interface AppTesterTable {
  app_id: number;
  user_id: number;
}

/** api.php calls of an app per UTC day and method, and how many of them failed. */
export interface AppUsageTable {
  app_id: number;
  day: string;
  method: string;
  calls: number;
  errors: number;
  last_error_code: string | null;
}

export interface AppKeyTable {
  id: Generated<number>;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  key_hash: string;
  app_id: number;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The token the key was exchanged for, revoked if the key is replayed. */
  token_id: string | null;
}

export interface ApiTokenTable {
  id: string;
  /** SHA-256 of the token, hex. */
  token_hash: string;
  app_id: number;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** An event for an app (its callback URL), with its delivery state: callbacks/app-events.ts. */
export interface AppEventTable {
  /** `msg_…`: the webhook-id, the same on every retry and redelivery. */
  id: string;
  app_id: number;
  type: string;
  /** The body sent, JSON text: {type, timestamp, data}. */
  payload: string;
  created_at: number;
  state: Generated<AppEventState>;
  attempts: Generated<number>;
  next_attempt_at: number;
  first_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
}

export type AppEventState = 'pending' | 'delivered' | 'failed' | 'no_callback';

/** A user asked an app to delete their data; the app reports its progress to the status URL. */
export interface DataDeletionRequestTable {
  /** The confirmation code, also the last segment of the status URL. */
  id: string;
  app_id: number;
  user_id: number;
  status: DataDeletionStatus;
  requested_at: number;
  updated_at: number;
}

export type DataDeletionStatus = 'requested' | 'in_progress' | 'completed';

export interface DB {
  users: UserTable;
  friend_requests: FriendRequestTable;
  friendships: FriendshipTable;
  conversations: ConversationTable;
  messages: MessageTable;
  notifications: NotificationTable;
  photos: PhotoTable;
  photo_files: PhotoFileTable;
  applications: ApplicationTable;
  app_keys: AppKeyTable;
  api_tokens: ApiTokenTable;
  app_grants: AppGrantTable;
  app_testers: AppTesterTable;
  app_usage: AppUsageTable;
  app_events: AppEventTable;
  data_deletion_requests: DataDeletionRequestTable;
}
