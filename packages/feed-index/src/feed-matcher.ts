import { columnBound } from './column-bound.ts';
import type { FeedColumns } from './feed-columns.ts';
import { type BoundedColumn, type FeedFilters, feedBounds } from './filters.ts';
import { FlagColumn } from './flag-column.ts';

/** Tests row `i` of the columns it was compiled for. */
export type FeedRowMatcher = (i: number) => boolean;

/**
 * The feed filters as one predicate over FeedColumns (row at a time; the baseline of
 * bench/filter-matching and a cross-check in the tests). Each bound is hoisted into a
 * constant; an absent one is a bound every value passes, so the hot loop has no branches on
 * which filters are present.
 */
export function compileFeedMatcher(columns: FeedColumns, filters: FeedFilters, now: number): FeedRowMatcher {
  const { statuses, tlds, bounds, contains: needle, rowTests } = feedBounds(filters, now);
  const tests = rowTests.map((test) => test.compile(columns));
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
  const hyphens = FlagColumn.passing(min('hasHyphen'), max('hasHyphen'));
  const digits = FlagColumn.passing(min('hasDigit'), max('hasDigit'));
  // A time's bound in the column's codes; NULL fails every bound, which an absent one must let through: checked only when bounded.
  const timeBound = (column: 'droppedAt' | 'firstArchivedAt' | 'expectedDropAt') => {
    const given = bound(column);
    return given ? columnBound(columns, given) : { values: columns[column].codes, min: 0, max: 0 };
  };
  const checkDropped = bound('droppedAt') !== undefined;
  const { values: droppedAt, min: droppedFrom, max: droppedUntil } = timeBound('droppedAt');
  const checkArchived = bound('firstArchivedAt') !== undefined;
  const { values: firstArchivedAt, max: archivedBy } = timeBound('firstArchivedAt');
  const checkDrops = bound('expectedDropAt') !== undefined;
  const { values: expectedDropAt, min: dropsFrom, max: dropsUntil } = timeBound('expectedDropAt');

  const { status, tld, da, tf, altTldCount, length, hasHyphen, hasDigit } = columns;
  return (i) =>
    statusCodes[status[i]!] === 1 &&
    tldCodes[tld[i]!] === 1 &&
    da[i]! >= minDa &&
    tf[i]! >= minTf &&
    altTldCount[i]! >= minAltTlds &&
    length[i]! <= maxLength &&
    (hasHyphen.isZero(i) ? hyphens.zero : hyphens.one) &&
    (hasDigit.isZero(i) ? digits.zero : digits.one) &&
    (!checkDropped || (droppedAt[i]! >= droppedFrom && droppedAt[i]! <= droppedUntil)) &&
    (!checkArchived || firstArchivedAt[i]! <= archivedBy) &&
    (!checkDrops || (expectedDropAt[i]! >= dropsFrom && expectedDropAt[i]! <= dropsUntil)) &&
    (needle === null || columns.labelContains(i, needle)) &&
    (tests.length === 0 || tests.every((test) => test(i)));
}
