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
}
