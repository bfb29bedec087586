import type { Generated } from 'kysely';

/**
 * Kysely table types. Times are epoch milliseconds (int8 in Postgres, integer in SQLite),
 * booleans are 0/1 integers: one representation that both engines store alike.
 */
export interface AccountTable {
  id: string;
  email: string;
  created_at: number;
}

export interface SubscriptionTable {
  account_id: string;
  plan: string;
  /** Start of the current billing period. */
  period_start: number;
  /** End of the current billing period; null on Free, which never expires. */
  period_end: number | null;
  /** When a paid plan was cancelled; the keys stop working at period_end. */
  cancelled_at: number | null;
  updated_at: number;
}

export interface ApiKeyTable {
  id: string;
  account_id: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  /** The first characters of the key, shown in listings so people can tell keys apart. */
  prefix: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface QuotaUsageTable {
  account_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  used: number;
}

export interface DB {
  accounts: AccountTable;
  subscriptions: SubscriptionTable;
  api_keys: ApiKeyTable;
  quota_usage: QuotaUsageTable;
}

export type { Generated };
