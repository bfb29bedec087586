// Each filter has two halves, keyed by its query parameter: its wire half (description, value kind,
// form label, error codes with their catalogue text) in packages/contracts FEED_FILTER_WIRE, which
// is browser-safe for the SDK and read by OpenAPI, the guide, the dashboard and the error catalogue;
// and its meaning here (parsing, SQL, index), which needs Node. The compiler refuses either without the other.
import {
  DEFAULT_LIMIT,
  FEED_FILTER_WIRE,
  FEED_PAGE_WIRE,
  FEED_SORTS,
  FEED_STATUSES,
  type FeedFilterParameter,
  type FeedFiltersOfValue,
  type FeedQueryErrorCode,
  type FeedSort,
} from '@repo/contracts/domain-intel';
import { type FeedColumns, NO_VALUE } from './feed-columns.ts';
import { ANY_STATUSES, STATUS_CODES } from './statuses.ts';

export { ANY_STATUSES };

/** A mean Gregorian year, so that ages and the `min_years` filter agree. */
export const YEAR_MS = 365.2425 * 86_400_000;

export type FeedQueryInput = Record<string, string | undefined>;

export interface FeedPage {
  sort: FeedSort;
  limit: number;
  offset: number;
}

/** A column of feed_domains a filter's SQL reads (the app checks these against its schema). */
export type FeedSqlColumn =
  | 'status'
  | 'tld'
  | 'label'
  | 'first_archived_at'
  | 'da'
  | 'tf'
  | 'alt_tld_count'
  | 'dropped_at'
  | 'expected_drop_at'
  | 'length'
  | 'has_hyphen'
  | 'has_digit';

/**
 * One condition of a WHERE clause (ANDed with the others), written without a query builder: the
 * app renders it (its feed-query.ts), so this package needs no database library.
 */
export interface SqlPredicate {
  column: FeedSqlColumn;
  op: '=' | '<' | '<=' | '>=' | 'in' | 'like';
  value: string | number | readonly string[];
  /**
   * SQLite would serve `status IN (…)` from the per-status indexes and then sort every row: written
   * `+status` there, the column is hidden from index selection and the drop-order index (which
   * carries it) is walked instead. Postgres plans this well by itself.
   */
  hiddenFromSqliteIndexes?: boolean;
}

/** The FeedColumns columns a bound applies to. */
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
 * A test of one row that no bound, bitmap or label gram expresses (e.g. `ends_with`), applied
 * last to the rows still matching. `key` names it in the index's cache of matches.
 */
export interface FeedRowTest {
  key: string;
  compile(columns: FeedColumns): (i: number) => boolean;
}

/**
 * The feed filters in FeedColumns' terms: the status codes and TLDs a row must have, one inclusive
 * bound per bounded column, the text its label must contain and any other row tests. Built by
 * feedBounds from each filter's `index` below; the feed index, saved-filter matching and the
 * row-at-a-time matcher all evaluate these.
 */
export interface FeedBounds {
  /** STATUS_CODES codes the row's status must be one of (shared between calls: never changed). */
  statuses: readonly number[];
  /** TLDs the row must have one of; null: any. */
  tlds: readonly string[] | null;
  bounds: FeedBound[];
  contains: Buffer | null;
  rowTests: FeedRowTest[];
}

/**
 * Every error code the parsing gives: the codes the wire half lists (the app's error catalogue
 * takes them with their text from there, so its appError accepts each).
 */
export type FeedFilterErrorCode = FeedQueryErrorCode;

/** Bad feed input, with the catalogued code the app answers it with (no web framework here). */
export class FeedFilterError extends Error {
  constructor(
    readonly code: FeedFilterErrorCode,
    message: string,
    readonly options: { details: Record<string, unknown> },
  ) {
    super(message);
  }
}

/**
 * One feed filter's meaning: its query parameter (whose wire half is in packages/contracts
 * FEED_FILTER_WIRE), how that parses (with its catalogued error), its SQL predicates and its bound
 * in the index. Absent, a filter's value is null (or its default) and it adds nothing to either.
 */
interface FeedFilterDefinition<V, P extends FeedFilterParameter = FeedFilterParameter> {
  /** The query parameter: a key of FEED_FILTER_WIRE. */
  parameter: P;
  /** The value from the query; may also check the query's other parameters (ranges, combinations). */
  parse(query: FeedQueryInput, trackedTlds: readonly string[]): V;
  sql(value: V, now: number): SqlPredicate[];
  index(value: V, now: number, bounds: FeedBounds): void;
}

const define = <V, P extends FeedFilterParameter>(definition: FeedFilterDefinition<V, P>) => definition;

/**
 * Every feed filter. To add one: an entry here (parameter, parse, sql, index) and its wire entry
 * in packages/contracts FEED_FILTER_WIRE (description, value kind, form label, error codes with
 * their text); FeedFilters, the SQL path, the index, saved filters, the export, OpenAPI, the
 * error catalogue, the SDK and the dashboard's explorer follow, and `npm run feed-docs` rewrites
 * the guide's table. Without either half `npx tsc -b` fails.
 */
export const FEED_FILTERS = {
  tlds: define({
    parameter: 'tld',
    parse: (query: FeedQueryInput, tracked: readonly string[]) => tldParam(query, tracked),
    sql: (tlds) =>
      tlds === null
        ? []
        : [tlds.length === 1 ? { column: 'tld', op: '=', value: tlds[0]! } : { column: 'tld', op: 'in', value: tlds }],
    index: (tlds, _, bounds) => {
      bounds.tlds = tlds;
    },
  }),
  minYears: define({
    parameter: 'min_years',
    parse: (query: FeedQueryInput) => integerParam(query, 'min_years'),
    // `first_archived_at <= now - n years`; 0 years is no filter (a row without an archive date passes).
    sql: (years, now) =>
      years ? [{ column: 'first_archived_at', op: '<=', value: Math.floor(now - years * YEAR_MS) }] : [],
    index: (years, now, bounds) => {
      if (years) addBound(bounds, 'firstArchivedAt', Number.NEGATIVE_INFINITY, Math.floor(now - years * YEAR_MS));
    },
  }),
  minDa: atLeastFilter('min_da', 'da', 'da'),
  minTf: atLeastFilter('min_tf', 'tf', 'tf'),
  droppedAfter: afterFilter('dropped_after', 'dropped_at', 'droppedAt'),
  droppedBefore: beforeFilter('dropped_before', 'dropped_after', 'dropped_at', 'droppedAt'),
  status: define({
    parameter: 'status',
    parse: (query: FeedQueryInput) => enumParam(query, 'status', FEED_STATUSES, 'dropped'),
    sql: (status): SqlPredicate[] =>
      status === 'any'
        ? [{ column: 'status', op: 'in', value: ANY_STATUSES, hiddenFromSqliteIndexes: true }]
        : [{ column: 'status', op: '=', value: status }],
    index: (status, _, bounds) => {
      bounds.statuses = STATUS_FILTER_CODES.get(status) ?? [];
    },
  }),
  maxLength: define({
    parameter: 'max_length',
    parse: (query: FeedQueryInput) => integerParam(query, 'max_length'),
    sql: (max) => (max === null ? [] : [{ column: 'length', op: '<=', value: max }]),
    index: (max, _, bounds) => {
      if (max !== null) addBound(bounds, 'length', 0, max);
    },
  }),
  hyphens: withoutFilter('hyphens', 'has_hyphen', 'hasHyphen'),
  digits: withoutFilter('digits', 'has_digit', 'hasDigit'),
  contains: define({
    parameter: 'contains',
    parse: (query: FeedQueryInput) => labelTextParam(query, 'contains'),
    // Letters, digits and hyphens only (labelTextParam): the text holds no LIKE wildcard.
    sql: (text) => (text === null ? [] : [{ column: 'label', op: 'like', value: `%${text}%` }]),
    index: (text, _, bounds) => {
      if (text !== null) bounds.contains = Buffer.from(text, 'latin1');
    },
  }),
  startsWith: labelEndFilter('starts_with', 'start'),
  endsWith: labelEndFilter('ends_with', 'end'),
  minAltTlds: atLeastFilter('min_alt_tlds', 'alt_tld_count', 'altTldCount'),
  dropsAfter: afterFilter('drops_after', 'expected_drop_at', 'expectedDropAt'),
  dropsBefore: beforeFilter('drops_before', 'drops_after', 'expected_drop_at', 'expectedDropAt', 'pending-delete only'),
};

/** The feed's filters after validation: what the paged list, the export and saved filters apply. */
export type FeedFilters = { [K in keyof typeof FEED_FILTERS]: ReturnType<(typeof FEED_FILTERS)[K]['parse']> };

export type FeedFilterName = keyof typeof FEED_FILTERS;

/**
 * Every wire filter has its definition above: a parameter of FEED_FILTER_WIRE without one is a
 * compile error naming it (and `parameter` only takes FEED_FILTER_WIRE's keys, the other way round).
 */
export const EVERY_WIRE_FILTER_DEFINED: Record<
  Exclude<FeedFilterParameter, (typeof FEED_FILTERS)[FeedFilterName]['parameter']>,
  never
> = {};

const FILTER_NAMES = Object.keys(FEED_FILTERS) as FeedFilterName[];

/** Each filter's definition with its value's type erased, for the loops over all of them. */
const definitionOf = (name: FeedFilterName) => FEED_FILTERS[name] as FeedFilterDefinition<unknown>;

export function parseFeedFilters(query: FeedQueryInput, trackedTlds: readonly string[]): FeedFilters {
  const filters: Partial<Record<FeedFilterName, unknown>> = {};
  for (const name of FILTER_NAMES) filters[name] = definitionOf(name).parse(query, trackedTlds);
  return filters as FeedFilters;
}

/** The WHERE clause of the filters (ANDed), for the app's query builder. */
export function feedSqlPredicates(filters: FeedFilters, now: number): SqlPredicate[] {
  return FILTER_NAMES.flatMap((name) => definitionOf(name).sql(filters[name], now));
}

/** The filters in the index's terms (see FeedBounds). */
export function feedBounds(filters: FeedFilters, now: number): FeedBounds {
  const bounds: FeedBounds = { statuses: [], tlds: null, bounds: [], contains: null, rowTests: [] };
  for (const name of FILTER_NAMES) definitionOf(name).index(filters[name], now, bounds);
  // The index checks bounds in this order (each only where the ones before left rows): DA first
  // (it cuts the groups), then the small columns, then the times, as before the definitions moved here.
  bounds.bounds.sort((a, b) => BOUND_ORDER.indexOf(a.column) - BOUND_ORDER.indexOf(b.column));
  return bounds;
}

const BOUND_ORDER: readonly BoundedColumn[] = [
  'da',
  'tf',
  'altTldCount',
  'firstArchivedAt',
  'droppedAt',
  'expectedDropAt',
  'length',
  'hasHyphen',
  'hasDigit',
];

export function parseFeedPage(query: FeedQueryInput): FeedPage {
  return {
    sort: enumParam(query, 'sort', FEED_SORTS, 'dropped_at'),
    limit: integerParam(query, 'limit') ?? DEFAULT_LIMIT,
    offset: integerParam(query, 'offset') ?? 0,
  };
}

// ——— The kinds of filter the definitions above are made of ———

/**
 * Narrows the bound on `column` to [min, max] (a second filter on the same column, e.g. after and
 * before, intersects with the first: the index evaluates one bound per column).
 */
function addBound(bounds: FeedBounds, column: BoundedColumn, min: number, max: number): void {
  const existing = bounds.bounds.find((bound) => bound.column === column);
  if (!existing) bounds.bounds.push({ column, min, max });
  else {
    existing.min = Math.max(existing.min, min);
    existing.max = Math.min(existing.max, max);
  }
}

/** `column >= n` on a small whole-number column (NULL never passes). */
/**
 * A filter on the text at one end of the label (starts_with, ends_with): SQL `LIKE 'text%'` or
 * `'%text'`; in the index, a label with the text at an end contains it, so the label grams narrow
 * the rows (unless `contains` already does), and a row test compares the bytes at that end.
 */
function labelEndFilter<P extends FeedFiltersOfValue<'label-text'>>(parameter: P, end: 'start' | 'end') {
  return define({
    parameter,
    parse: (query: FeedQueryInput) => labelTextParam(query, parameter),
    sql: (text: string | null): SqlPredicate[] =>
      text === null ? [] : [{ column: 'label', op: 'like', value: end === 'start' ? `${text}%` : `%${text}` }],
    index: (text: string | null, _: number, bounds: FeedBounds) => {
      if (text === null) return;
      const needle = Buffer.from(text, 'latin1');
      bounds.contains ??= needle;
      bounds.rowTests.push({
        key: `${parameter}:${text}`,
        compile: (columns) => {
          const bytes = columns.labelBytes;
          return (i) => {
            const labelStart = columns.labelStart(i);
            const labelEnd = columns.labelStart(i + 1);
            const from = end === 'start' ? labelStart : labelEnd - needle.length;
            // The label is shorter than the text.
            if (from < labelStart || from + needle.length > labelEnd) return false;
            for (let k = 0; k < needle.length; k++) if (bytes[from + k] !== needle[k]) return false;
            return true;
          };
        },
      });
    },
  });
}

function atLeastFilter<P extends FeedFiltersOfValue<'whole-number'>>(
  parameter: P,
  column: FeedSqlColumn,
  indexColumn: BoundedColumn,
) {
  return define({
    parameter,
    parse: (query: FeedQueryInput) => integerParam(query, parameter),
    sql: (floor) => (floor === null ? [] : [{ column, op: '>=', value: floor }]),
    index: (floor, _, bounds) => {
      // NULL is NO_VALUE (-1) in the index, below every accepted floor.
      if (floor !== null) addBound(bounds, indexColumn, Math.max(floor, NO_VALUE + 1), Number.POSITIVE_INFINITY);
    },
  });
}

/** `column >= time` (inclusive) on an epoch-ms column (NULL, NaN in the index, never passes). */
function afterFilter<P extends FeedFiltersOfValue<'date'>>(
  parameter: P,
  column: FeedSqlColumn,
  indexColumn: BoundedColumn,
) {
  return define({
    parameter,
    parse: (query: FeedQueryInput) => dateParam(query, parameter),
    sql: (after) => (after === null ? [] : [{ column, op: '>=', value: after }]),
    index: (after, _, bounds) => {
      if (after !== null) addBound(bounds, indexColumn, Math.ceil(after), Number.POSITIVE_INFINITY);
    },
  });
}

/**
 * `column < time` (exclusive) on an epoch-ms column; it must be later than its `after` partner,
 * and (drops_before) both need status=pending-delete.
 */
function beforeFilter<P extends FeedFiltersOfValue<'date'>>(
  parameter: P,
  afterParameter: FeedFiltersOfValue<'date'>,
  column: FeedSqlColumn,
  indexColumn: BoundedColumn,
  only?: 'pending-delete only',
) {
  return define({
    parameter,
    parse: (query: FeedQueryInput) => {
      const before = dateParam(query, parameter);
      const after = dateParam(query, afterParameter);
      if (after !== null && before !== null && after >= before) {
        throw new FeedFilterError('invalid_date_range', `${afterParameter} must be earlier than ${parameter}.`, {
          details: { parameter: afterParameter },
        });
      }
      if (only && (after !== null || before !== null) && query.status !== 'pending-delete') {
        throw new FeedFilterError(
          'drops_filter_needs_pending_delete',
          `${afterParameter} and ${parameter} filter on the expected drop of pending-delete names; add status=pending-delete.`,
          { details: { parameter: after !== null ? afterParameter : parameter } },
        );
      }
      return before;
    },
    sql: (before) => (before === null ? [] : [{ column, op: '<', value: before }]),
    index: (before, _, bounds) => {
      if (before !== null) addBound(bounds, indexColumn, Number.NEGATIVE_INFINITY, Math.ceil(before) - 1);
    },
  });
}

/** `false`: only labels without one (the 0/1 column `= 0`); `true` or absent: either. */
function withoutFilter<P extends FeedFiltersOfValue<'allowed'>>(
  parameter: P,
  column: FeedSqlColumn,
  indexColumn: BoundedColumn,
) {
  return define({
    parameter,
    parse: (query: FeedQueryInput) => allowedParam(query, parameter),
    sql: (allowed) => (allowed === false ? [{ column, op: '=', value: 0 }] : []),
    index: (allowed, _, bounds) => {
      if (allowed === false) addBound(bounds, indexColumn, 0, 0);
    },
  });
}

/** The status codes each `status` filter value selects (computed once: feedBounds runs on every feed call). */
const STATUS_FILTER_CODES = new Map<string, number[]>(
  [...ANY_STATUSES, ...STATUS_CODES, 'any'].map((status) => [
    status,
    (status === 'any' ? ANY_STATUSES : [status]).map((name) => STATUS_CODES.indexOf(name)).filter((code) => code >= 0),
  ]),
);

// ——— Parameter parsing ———

const INTEGER = /^\d+$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// ISO 8601 date-time with an explicit offset (or Z), seconds and fraction optional.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The filter and paging parameters that take a whole number; each has its own `invalid_<name>` code. */
type IntegerParameter = FeedFiltersOfValue<'whole-number'> | 'limit' | 'offset';

/** A whole number in the parameter's range (its wire entry's). */
function integerParam(query: FeedQueryInput, name: IntegerParameter): number | null {
  const { min, max } =
    name === 'limit' || name === 'offset' ? FEED_PAGE_WIRE[name].range : FEED_FILTER_WIRE[name].range;
  const raw = query[name];
  if (raw === undefined) return null;
  if (!INTEGER.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new FeedFilterError(
      `invalid_${name}`,
      `${name} must be a whole number from ${min} to ${max}; got "${raw}".`,
      {
        details: { parameter: name, min, max },
      },
    );
  }
  return Number(raw);
}

/** `YYYY-MM-DD` (00:00 UTC of that day) or an ISO date-time with offset; anything else is a 400. */
function dateParam(query: FeedQueryInput, name: string): number | null {
  const raw = query[name];
  if (raw === undefined) return null;
  const shaped = DATE_ONLY.test(raw) ? `${raw}T00:00:00Z` : DATE_TIME.test(raw) ? raw : null;
  const time = shaped === null ? Number.NaN : Date.parse(shaped);
  // Date.parse rolls 2026-02-30 over to March; a date that does not round-trip is not a date.
  const valid = !Number.isNaN(time) && (!DATE_ONLY.test(raw) || new Date(time).toISOString().startsWith(raw));
  if (!valid) {
    throw new FeedFilterError(
      'invalid_date',
      `${name} must be an ISO date (2026-03-01) or date-time (2026-03-01T06:00:00Z); got "${raw}".`,
      { details: { parameter: name } },
    );
  }
  return time;
}

function enumParam<T extends string>(
  query: FeedQueryInput,
  name: 'status' | 'sort',
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new FeedFilterError(`invalid_${name}`, `${name} must be one of ${allowed.join(', ')}; got "${raw}".`, {
      details: { parameter: name, allowed },
    });
  }
  return raw as T;
}

/** `true` (the default: allowed) or `false` (excluded); anything else is a 400. */
function allowedParam(query: FeedQueryInput, name: FeedFiltersOfValue<'allowed'>): false | null {
  const raw = query[name];
  if (raw === undefined || raw === 'true') return null;
  if (raw === 'false') return false;
  throw new FeedFilterError(`invalid_${name}`, `${name} must be true or false; got "${raw}".`, {
    details: { parameter: name },
  });
}

const LABEL_TEXT = /^[a-z0-9-]{1,63}$/;

/** Plain label text: letters, digits and hyphens only, so it can never be a pattern. */
function labelTextParam(query: FeedQueryInput, name: FeedFiltersOfValue<'label-text'>): string | null {
  const raw = query[name];
  if (raw === undefined) return null;
  const text = raw.trim().toLowerCase();
  if (!LABEL_TEXT.test(text)) {
    throw new FeedFilterError(
      `invalid_${name}`,
      `${name} must be 1-63 letters, digits or hyphens (plain text, no wildcards); got "${raw}".`,
      { details: { parameter: name } },
    );
  }
  return text;
}

function tldParam(query: FeedQueryInput, tracked: readonly string[]): string[] | null {
  const raw = query.tld;
  if (raw === undefined) return null;
  const tlds = [...new Set(raw.split(',').map((tld) => tld.trim().toLowerCase().replace(/^\./, '')))];
  if (tlds.length === 0 || tlds.includes('')) {
    throw new FeedFilterError('invalid_tld', 'tld must be a comma-separated list of TLDs, e.g. com,net.', {
      details: { parameter: 'tld' },
    });
  }
  const unknown = tlds.filter((tld) => !tracked.includes(tld));
  if (unknown.length > 0) {
    throw new FeedFilterError(
      'unknown_tld',
      `The feed does not track ${unknown.join(', ')}; tracked: ${tracked.join(', ')}.`,
      { details: { parameter: 'tld', unknown, tracked } },
    );
  }
  return tlds;
}
