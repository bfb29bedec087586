import { type FeedColumns, NO_VALUE } from './feed-columns.ts';
import { STATUS_CODES } from './statuses.ts';
import { ANY_STATUSES, type FeedFilters, YEAR_MS } from './filters.ts';

/** Tests row `i` of the columns it was compiled for. */
export type FeedRowMatcher = (i: number) => boolean;

/** The FeedColumns columns a filter bounds. */
export type BoundedColumn =
  | 'da'
  | 'tf'
  | 'altTldCount'
  | 'length'
  | 'hasHyphen'
  | 'hasDigit'
  | 'droppedAt'
  | 'firstArchivedAt'
  | 'expectedDropAt';

/** `min <= value <= max` (whole numbers; a NULL, stored as NaN or NO_VALUE, never satisfies one). */
export interface FeedBound {
  column: BoundedColumn;
  min: number;
  max: number;
}

/**
 * The feed filters in FeedColumns' terms, with exactly the SQL path's meaning (feed-query.ts
 * applyFilters): the status codes and TLDs a row must have, one inclusive bound per other
 * filter present, and the text its label must contain. This is the one place that says what a
 * filter means in memory: the row matcher below, the feed index and saved-filter matching
 * (both through FeedClusters) all evaluate these bounds.
 *
 * To add a filter: a column in FeedColumns and one bound here.
 */
export interface FeedBounds {
  /** STATUS_CODES codes the row's status must be one of (shared between calls: never changed). */
  statuses: readonly number[];
  /** TLDs the row must have one of; null: any. */
  tlds: readonly string[] | null;
  bounds: FeedBound[];
  contains: Buffer | null;
}

/** The status codes each `status` filter value selects (computed once: feedBounds runs on every feed call). */
const STATUS_FILTER_CODES = new Map<string, number[]>(
  [...ANY_STATUSES, ...STATUS_CODES, 'any'].map((status) => [
    status,
    (status === 'any' ? ANY_STATUSES : [status]).map((name) => STATUS_CODES.indexOf(name)).filter((code) => code >= 0),
  ]),
);

/** `min <= value` on a small whole-number column; NULL is NO_VALUE (-1), below every accepted floor (filters.ts: >= 0). */
function atLeast(bounds: FeedBound[], column: BoundedColumn, min: number | null): void {
  if (min !== null) bounds.push({ column, min: Math.max(min, NO_VALUE + 1), max: Number.POSITIVE_INFINITY });
}

/** `after <= value < before` on an epoch-ms column (NaN for NULL: it fails both comparisons). */
function between(bounds: FeedBound[], column: BoundedColumn, after: number | null, before: number | null): void {
  if (after === null && before === null) return;
  bounds.push({
    column,
    min: after === null ? Number.NEGATIVE_INFINITY : Math.ceil(after),
    max: before === null ? Number.POSITIVE_INFINITY : Math.ceil(before) - 1,
  });
}

export function feedBounds(filters: FeedFilters, now: number): FeedBounds {
  const bounds: FeedBound[] = [];
  atLeast(bounds, 'da', filters.minDa);
  atLeast(bounds, 'tf', filters.minTf);
  atLeast(bounds, 'altTldCount', filters.minAltTlds);
  if (filters.minYears !== null && filters.minYears > 0) {
    bounds.push({
      column: 'firstArchivedAt',
      min: Number.NEGATIVE_INFINITY,
      max: Math.floor(now - filters.minYears * YEAR_MS),
    });
  }
  between(bounds, 'droppedAt', filters.droppedAfter, filters.droppedBefore);
  between(bounds, 'expectedDropAt', filters.dropsAfter, filters.dropsBefore);
  if (filters.maxLength !== null) bounds.push({ column: 'length', min: 0, max: filters.maxLength });
  // has_hyphen / has_digit are 0 or 1: `= 0` keeps only labels without one.
  if (filters.hyphens === false) bounds.push({ column: 'hasHyphen', min: 0, max: 0 });
  if (filters.digits === false) bounds.push({ column: 'hasDigit', min: 0, max: 0 });
  return {
    statuses: STATUS_FILTER_CODES.get(filters.status) ?? [],
    tlds: filters.tlds,
    bounds,
    contains: filters.contains === null ? null : Buffer.from(filters.contains, 'latin1'),
  };
}

/**
 * The feed filters as one predicate over FeedColumns (row at a time; the baseline of
 * bench/filter-matching and a cross-check in the tests). Each bound is hoisted into a
 * constant; an absent one is a bound every value passes, so the hot loop has no branches on
 * which filters are present.
 */
export function compileFeedMatcher(columns: FeedColumns, filters: FeedFilters, now: number): FeedRowMatcher {
  const { statuses, tlds, bounds, contains: needle } = feedBounds(filters, now);
  const statusCodes = new Uint8Array(256);
  for (const code of statuses) statusCodes[code] = 1;
  const tldCodes = new Uint8Array(Math.max(1, columns.tlds.length));
  if (tlds === null) tldCodes.fill(1);
  else for (const tld of tlds) if (columns.tldCode(tld) >= 0) tldCodes[columns.tldCode(tld)] = 1;
  const bound = (column: BoundedColumn) => bounds.find((candidate) => candidate.column === column);
  const min = (column: BoundedColumn) => bound(column)?.min ?? Number.NEGATIVE_INFINITY;
  const max = (column: BoundedColumn) => bound(column)?.max ?? Number.POSITIVE_INFINITY;

  const minDa = min('da');
  const minTf = min('tf');
  const minAltTlds = min('altTldCount');
  const maxLength = max('length');
  const maxHyphen = max('hasHyphen');
  const maxDigit = max('hasDigit');
  // The time columns hold NaN for NULL, which an absent bound must let through: checked only when bounded.
  const checkDropped = bound('droppedAt') !== undefined;
  const [droppedFrom, droppedUntil] = [min('droppedAt'), max('droppedAt')];
  const checkArchived = bound('firstArchivedAt') !== undefined;
  const archivedBy = max('firstArchivedAt');
  const checkDrops = bound('expectedDropAt') !== undefined;
  const [dropsFrom, dropsUntil] = [min('expectedDropAt'), max('expectedDropAt')];

  const { status, tld, da, tf, altTldCount, length, hasHyphen, hasDigit, droppedAt, firstArchivedAt, expectedDropAt } =
    columns;
  return (i) =>
    statusCodes[status[i]!] === 1 &&
    tldCodes[tld[i]!] === 1 &&
    da[i]! >= minDa &&
    tf[i]! >= minTf &&
    altTldCount[i]! >= minAltTlds &&
    length[i]! <= maxLength &&
    hasHyphen[i]! <= maxHyphen &&
    hasDigit[i]! <= maxDigit &&
    (!checkDropped || (droppedAt[i]! >= droppedFrom && droppedAt[i]! <= droppedUntil)) &&
    (!checkArchived || firstArchivedAt[i]! <= archivedBy) &&
    (!checkDrops || (expectedDropAt[i]! >= dropsFrom && expectedDropAt[i]! <= dropsUntil)) &&
    (needle === null || columns.labelContains(i, needle));
}
