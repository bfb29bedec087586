import type { FeedRecord } from '@repo/contracts/domain-intel';
import { YEAR_MS } from '@repo/feed-index';
import type { Selectable } from 'kysely';
import type { FeedDomainTable } from '../db/schema.ts';

export const FEED_COLUMNS = [
  'domain',
  'tld',
  'status',
  'dropped_at',
  'first_archived_at',
  'alt_tld_count',
  'alt_tlds',
  'da',
  'tf',
  'length',
  'has_hyphen',
  'has_digit',
  'verified_at',
  'expected_drop_at',
  'zone_date',
  'expected_drop_earliest',
  'expected_drop_latest',
] as const;

export type FeedRowData = Pick<Selectable<FeedDomainTable>, (typeof FEED_COLUMNS)[number]>;

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** Age in years to one decimal, rounded down so `age_years >= min_years` matches the filter. */
export function ageYears(firstArchivedAt: number | null, now: number): number | null {
  if (firstArchivedAt === null) return null;
  return Math.max(0, Math.floor(((now - firstArchivedAt) / YEAR_MS) * 10) / 10);
}

export function toFeedRecord(row: FeedRowData, now: number): FeedRecord {
  return {
    domain: row.domain,
    tld: row.tld,
    status: row.status,
    dropped_at: iso(row.dropped_at),
    first_archived: row.first_archived_at === null ? null : iso(row.first_archived_at)!.slice(0, 10),
    age_years: ageYears(row.first_archived_at, now),
    alt_tld_count: row.alt_tld_count,
    alt_tlds: row.alt_tlds ? row.alt_tlds.split(',') : [],
    da: row.da,
    tf: row.tf,
    length: row.length,
    has_hyphen: row.has_hyphen === 1,
    has_digit: row.has_digit === 1,
    verified_at: iso(row.verified_at),
    expected_drop_at: row.status === 'pending-delete' ? iso(row.expected_drop_at) : null,
    // A new row's zone evidence is the snapshot it appeared in (zone-evidence.ts writes nothing else to it).
    first_seen: row.status === 'new' ? row.zone_date : null,
    // The window around expected_drop_at (lifecycle/drop-plan.ts dropWindow), like it on pending-delete rows only.
    expected_drop_earliest: row.status === 'pending-delete' ? iso(row.expected_drop_earliest) : null,
    expected_drop_latest: row.status === 'pending-delete' ? iso(row.expected_drop_latest) : null,
  };
}

/** CSV columns of the export, in order (lists are joined with `|`). */
export const CSV_HEADER = [
  'domain',
  'tld',
  'status',
  'dropped_at',
  'first_archived',
  'age_years',
  'alt_tld_count',
  'alt_tlds',
  'da',
  'tf',
  'length',
  'has_hyphen',
  'has_digit',
  'verified_at',
  'expected_drop_at',
  'first_seen',
  'expected_drop_earliest',
  'expected_drop_latest',
] as const satisfies readonly (keyof FeedRecord)[];

export function toCsvLine(record: FeedRecord): string {
  // Every value is a domain, an ISO date or time, a number or a boolean: none can hold a comma,
  // quote or newline, so no quoting is needed.
  return CSV_HEADER.map((column) => {
    const value = record[column];
    if (value === null) return '';
    if (Array.isArray(value)) return value.join('|');
    return String(value);
  }).join(',');
}
