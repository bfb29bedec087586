import { type FeedColumns, NO_VALUE, STATUS_CODES } from './feed-columns.ts';
import { ANY_STATUSES } from './feed-query.ts';
import { YEAR_MS } from './feed-row.ts';
import type { FeedFilters } from './filters.ts';

/** Tests row `i` of the columns it was compiled for. */
export type FeedRowMatcher = (i: number) => boolean;

/**
 * The feed filters as one predicate over FeedColumns, with exactly the SQL path's meaning
 * (feed-query.ts applyFilters: NULL never satisfies a bound). The in-memory feed index counts
 * and pages with it, and saved-filter matching can run it over a day's new drops
 * (FeedColumns.fromRows). Each bound is hoisted into a constant; an absent one is a bound every
 * value passes, so the hot loop has no branches on which filters are present.
 *
 * To add a filter: one bound below and one line in the returned predicate.
 */
export function compileFeedMatcher(columns: FeedColumns, filters: FeedFilters, now: number): FeedRowMatcher {
  const statusCodes = new Uint8Array(256);
  for (const status of filters.status === 'any' ? ANY_STATUSES : [filters.status]) {
    statusCodes[STATUS_CODES.indexOf(status)] = 1;
  }
  const tldCodes = new Uint8Array(Math.max(1, columns.tlds.length));
  if (filters.tlds === null) tldCodes.fill(1);
  else for (const tld of filters.tlds) if (columns.tldCode(tld) >= 0) tldCodes[columns.tldCode(tld)] = 1;

  const archivedBy =
    filters.minYears !== null && filters.minYears > 0 ? Math.floor(now - filters.minYears * YEAR_MS) : null;
  const minDa = filters.minDa ?? NO_VALUE;
  const minTf = filters.minTf ?? NO_VALUE;
  const droppedFrom = filters.droppedAfter ?? Number.NEGATIVE_INFINITY;
  const droppedUntil = filters.droppedBefore ?? Number.POSITIVE_INFINITY;
  const checkDropped = filters.droppedAfter !== null || filters.droppedBefore !== null;
  const minAltTlds = filters.minAltTlds ?? NO_VALUE;
  const maxLength = filters.maxLength ?? Number.POSITIVE_INFINITY;
  // has_hyphen / has_digit are 0 or 1: a bound of 0 keeps only labels without one.
  const maxHyphen = filters.hyphens === false ? 0 : 1;
  const maxDigit = filters.digits === false ? 0 : 1;
  const dropsFrom = filters.dropsAfter ?? Number.NEGATIVE_INFINITY;
  const dropsUntil = filters.dropsBefore ?? Number.POSITIVE_INFINITY;
  const checkDrops = filters.dropsAfter !== null || filters.dropsBefore !== null;
  const needle = filters.contains === null ? null : Buffer.from(filters.contains, 'latin1');

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
    (!checkDropped || (droppedAt[i]! >= droppedFrom && droppedAt[i]! < droppedUntil)) &&
    (archivedBy === null || firstArchivedAt[i]! <= archivedBy) &&
    (!checkDrops || (expectedDropAt[i]! >= dropsFrom && expectedDropAt[i]! < dropsUntil)) &&
    (needle === null || columns.labelContains(i, needle));
}
