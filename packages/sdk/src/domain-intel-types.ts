/** Types of the Domain Intelligence API's client (its records checked against /openapi.json by the tests). */

import type {
  FEED_FILTER_WIRE,
  FeedFilterParameter,
  FeedRecord,
  FeedSort,
  FeedStatus,
} from '@repo/contracts/domain-intel';

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
  FeedSort,
  FeedStatus,
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

/** `min_alt_tlds` → `minAltTlds`: the SDK's name of a wire parameter (the client maps it back). */
export type SdkName<Parameter extends string> = Parameter extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<SdkName<Tail>>}`
  : Parameter;

/** The type the SDK takes for each kind of filter value (packages/contracts FeedFilterValue). */
interface SdkFilterValues {
  'tld-list': string | string[];
  'whole-number': number;
  /** An ISO string (`2026-03-01`) or a Date. */
  date: string | Date;
  /** Default `dropped`: drops verified by RDAP only; `new`: new registrations. */
  status: FeedStatus;
  /** false: only labels without one. */
  allowed: boolean;
  /** Plain text (letters, digits, hyphens). */
  'label-text': string;
}

/**
 * The filters of /v1/domains, one field per wire filter (packages/contracts FEED_FILTER_WIRE,
 * where each parameter's description is), named in camelCase: `tld`, `minYears`, `endsWith`, …
 */
export type FeedFilters = {
  [Parameter in FeedFilterParameter as SdkName<Parameter>]?: SdkFilterValues[(typeof FEED_FILTER_WIRE)[Parameter]['value']];
};

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
