/** Types of the Domain Intelligence API's client (its records checked against /openapi.json by the tests). */

import type { FeedRecord } from '@repo/contracts/domain-intel';

// The records themselves are the servers' own contracts (TypeBox schemas in @repo/contracts),
// so the SDK cannot drift from what the API sends; type-only, so nothing of them is bundled.
export type {
  AccountEventType,
  Availability,
  BrandMatch,
  BrandMatchKind,
  BulkCheck,
  BulkCheckStatus,
  CreatedDeliveryTarget,
  Delivery,
  DeliveryTarget,
  EventData,
  FeedRecord,
  FilterBatchRow,
  Quota,
  SavedFilter,
  Suggestion,
  SuggestionStats,
  TargetKind,
  TldDrops,
  TldInfo,
  WatchEvidence,
  WatchedDomain,
  WatchStatus,
  WatchTransitionKind,
  WebhookEvent,
  WebhookEventType,
  WhoisContact,
  WhoisRecord,
} from '@repo/contracts/domain-intel';

/** `new`: names that entered a tracked zone and were not in it the day before (each with `first_seen`). */
export type FeedStatus = 'dropped' | 'pending-delete' | 'redemption' | 'left-zone' | 'any' | 'new';
export type FeedSort = 'dropped_at' | 'age' | 'da' | 'tf' | 'alt_tld_count';

/** The filters of /v1/domains. Dates are ISO strings (`2026-03-01`) or Date objects. */
export interface FeedFilters {
  tld?: string | string[];
  minYears?: number;
  minDa?: number;
  minTf?: number;
  droppedAfter?: string | Date;
  droppedBefore?: string | Date;
  /** Default `dropped`: drops verified by RDAP only; `new`: new registrations. */
  status?: FeedStatus;
  /** Longest label in characters (1-63). */
  maxLength?: number;
  /** false: only labels without a hyphen. */
  hyphens?: boolean;
  /** false: only labels without a digit. */
  digits?: boolean;
  /** Plain text the label must contain (letters, digits, hyphens). */
  contains?: string;
  /** Plain text the label must end with (letters, digits, hyphens). */
  endsWith?: string;
  minAltTlds?: number;
  /** With status `pending-delete`: expected to drop at or after this date. */
  dropsAfter?: string | Date;
  /** With status `pending-delete`: expected to drop before this date. */
  dropsBefore?: string | Date;
}

export interface FeedQuery extends FeedFilters {
  sort?: FeedSort;
  /** 1-100 (the server's default is 50). */
  limit?: number;
  /** 0-10 000. */
  offset?: number;
}

export interface FeedPage {
  records: FeedRecord[];
  total: number;
  limit: number;
  offset: number;
}

/** The X-RateLimit-* headers of the last keyed answer. */
export interface RateLimit {
  /** null: unlimited (Enterprise). */
  limit: number | null;
  remaining: number | null;
  resetsAt: Date | null;
}

/** A new saved filter: the feed filters as `domains()` takes them, or as a query string (`tld=com&min_da=20`). */
export interface NewSavedFilter {
  name: string;
  filter: FeedFilters | string;
  /**
   * A brand term (`paypal`: a label without TLD, 3-63 characters, IDN allowed): only rows whose
   * label is it or a lookalike are delivered, each row's `match` saying which kind.
   */
  brand?: string;
  /** Where its batches go (Enterprise); none: the dashboard only. */
  targetIds?: string[];
}

/** One page of a list the API pages with `limit` and `offset`. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}
