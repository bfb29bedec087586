import { ANY_STATUSES } from './feed-query.ts';
import { YEAR_MS } from './feed-row.ts';
import type { FeedFilters } from './filters.ts';

/** The columns of a feed row that the filters look at. */
export interface MatchableRow {
  tld: string;
  label: string;
  status: string;
  dropped_at: number | null;
  first_archived_at: number | null;
  da: number | null;
  tf: number | null;
  alt_tld_count: number | null;
  length: number;
  has_hyphen: number;
  has_digit: number;
  expected_drop_at: number | null;
}

export type RowPredicate = (row: MatchableRow) => boolean;

const atLeast = (value: number | null, min: number) => value !== null && value >= min;

/**
 * The feed filters as an in-memory predicate, with exactly the meaning of the SQL WHERE in
 * feed-query.ts (a NULL never passes a bound). Saved filters are matched with it against the
 * rows a pipeline run changed, thousands of filters at once, without a query per filter.
 * Only the checks a filter uses are in its predicate.
 */
export function compileFilter(filters: FeedFilters, now: number): RowPredicate {
  const checks: RowPredicate[] = [];
  if (filters.status === 'any') {
    const statuses = new Set(ANY_STATUSES);
    checks.push((row) => statuses.has(row.status));
  } else {
    const status = filters.status;
    checks.push((row) => row.status === status);
  }
  if (filters.tlds) {
    const tlds = new Set(filters.tlds);
    checks.push((row) => tlds.has(row.tld));
  }
  if (filters.minYears !== null && filters.minYears > 0) {
    const archivedBy = Math.floor(now - filters.minYears * YEAR_MS);
    checks.push((row) => row.first_archived_at !== null && row.first_archived_at <= archivedBy);
  }
  const { minDa, minTf, minAltTlds, maxLength, contains } = filters;
  if (minDa !== null) checks.push((row) => atLeast(row.da, minDa));
  if (minTf !== null) checks.push((row) => atLeast(row.tf, minTf));
  if (minAltTlds !== null) checks.push((row) => atLeast(row.alt_tld_count, minAltTlds));
  if (filters.droppedAfter !== null) {
    const after = filters.droppedAfter;
    checks.push((row) => atLeast(row.dropped_at, after));
  }
  if (filters.droppedBefore !== null) {
    const before = filters.droppedBefore;
    checks.push((row) => row.dropped_at !== null && row.dropped_at < before);
  }
  if (filters.dropsAfter !== null) {
    const after = filters.dropsAfter;
    checks.push((row) => atLeast(row.expected_drop_at, after));
  }
  if (filters.dropsBefore !== null) {
    const before = filters.dropsBefore;
    checks.push((row) => row.expected_drop_at !== null && row.expected_drop_at < before);
  }
  if (maxLength !== null) checks.push((row) => row.length <= maxLength);
  if (filters.hyphens === false) checks.push((row) => row.has_hyphen === 0);
  if (filters.digits === false) checks.push((row) => row.has_digit === 0);
  if (contains !== null) checks.push((row) => row.label.includes(contains));
  return (row) => {
    for (const check of checks) if (!check(row)) return false;
    return true;
  };
}
