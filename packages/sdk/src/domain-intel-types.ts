/** Types of the Domain Intelligence API's client (its records checked against /openapi.json by the tests). */

import type { FeedRecord } from '@repo/contracts/domain-intel';

// The records themselves are the servers' own contracts (TypeBox schemas in @repo/contracts),
// so the SDK cannot drift from what the API sends; type-only, so nothing of them is bundled.
export type {
  Availability,
  FeedRecord,
  Quota,
  Suggestion,
  SuggestionStats,
} from '@repo/contracts/domain-intel';

// The WHOIS record is still written in apps/domain-intel (rdap/types.ts, routes/v1/whois-schema.ts);
// it moves into @repo/contracts with its owner's next change.
export interface WhoisRecord {
  domain: string;
  unicode_name: string | null;
  registered: boolean;
  registrar: {
    name: string | null;
    iana_id: string | null;
    url: string | null;
    abuse_email: string | null;
    abuse_phone: string | null;
    handle?: string | null;
  } | null;
  created_at: string | null;
  updated_at: string | null;
  expires_at: string | null;
  nameservers: string[];
  status: string[];
  dnssec: boolean | null;
  registrant: {
    name: string | null;
    organization: string | null;
    email: string | null;
    country: string | null;
    redacted: boolean;
  } | null;
  rdap_sources: string[];
  missing: string[];
  fetched_at: string;
  // Additive fields (see the API's OpenAPI schema for their meaning).
  registry_domain_id?: string | null;
  transferred_at?: string | null;
  age_days?: number | null;
  expires_in_days?: number | null;
  status_epp?: string[];
  nameserver_details?: { name: string; ipv4: string[]; ipv6: string[] }[];
  dnssec_details?: {
    delegation_signed: boolean | null;
    ds_records: {
      key_tag: number | null;
      algorithm: number | null;
      digest_type: number | null;
      digest: string | null;
    }[];
  };
  contacts?: Record<'registrant' | 'administrative' | 'technical' | 'billing' | 'abuse', WhoisContact | null>;
  redactions?: { name: string | null; path: string | null; method: string | null; reason: string | null }[];
  privacy_service?: boolean;
  /** Each server's answer apart, with its source. */
  records?: { registry: Record<string, unknown>; registrar: Record<string, unknown> | null };
  cached?: boolean;
  /** With `{ raw: true }`: the RDAP documents as sent. */
  raw?: { registry: Record<string, unknown>; registrar: Record<string, unknown> | null };
}

export interface WhoisContact {
  handle: string | null;
  name: string | null;
  organization: string | null;
  email: string | null;
  phone: string | null;
  fax: string | null;
  street: string[];
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
  redacted_fields: string[];
}

export type FeedStatus = 'dropped' | 'pending-delete' | 'redemption' | 'left-zone' | 'any';
export type FeedSort = 'dropped_at' | 'age' | 'da' | 'tf' | 'alt_tld_count';

/** The filters of /v1/domains. Dates are ISO strings (`2026-03-01`) or Date objects. */
export interface FeedFilters {
  tld?: string | string[];
  minYears?: number;
  minDa?: number;
  minTf?: number;
  droppedAfter?: string | Date;
  droppedBefore?: string | Date;
  /** Default `dropped`: drops verified by RDAP only. */
  status?: FeedStatus;
  /** Longest label in characters (1-63). */
  maxLength?: number;
  /** false: only labels without a hyphen. */
  hyphens?: boolean;
  /** false: only labels without a digit. */
  digits?: boolean;
  /** Plain text the label must contain (letters, digits, hyphens). */
  contains?: string;
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
