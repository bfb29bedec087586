// The parameters are a wire contract (packages/contracts/src/domain-intel/feed-query.ts); this module validates them.
import {
  DEFAULT_LIMIT,
  FEED_SORTS,
  FEED_STATUSES,
  type FeedSort,
  type FeedStatus,
  MAX_LIMIT,
  MAX_OFFSET,
} from '@repo/contracts/domain-intel';

/** The feed's filters after validation: what both the paged list and the export apply. */
export interface FeedFilters {
  tlds: string[] | null;
  minYears: number | null;
  minDa: number | null;
  minTf: number | null;
  /** Epoch ms, inclusive. */
  droppedAfter: number | null;
  /** Epoch ms, exclusive. */
  droppedBefore: number | null;
  status: FeedStatus;
  /** Longest label, in characters. */
  maxLength: number | null;
  /** false: only labels without a hyphen; null: either. */
  hyphens: false | null;
  /** false: only labels without a digit; null: either. */
  digits: false | null;
  /** A plain substring the label must contain (lowercase letters, digits, hyphens). */
  contains: string | null;
  /** At least this many other tracked TLDs where the label is registered. */
  minAltTlds: number | null;
  /** Expected drop (pending-delete rows only), epoch ms, inclusive. */
  dropsAfter: number | null;
  /** Expected drop (pending-delete rows only), epoch ms, exclusive. */
  dropsBefore: number | null;
}

export interface FeedPage {
  sort: FeedSort;
  limit: number;
  offset: number;
}

/** The statuses `status=any` covers: names on the way and dropped ones, not those that came back. */
export const ANY_STATUSES = ['left-zone', 'redemption', 'pending-delete', 'dropped'];

/** A mean Gregorian year, so that ages and the `min_years` filter agree. */
export const YEAR_MS = 365.2425 * 86_400_000;

export type FeedQueryInput = Record<string, string | undefined>;

/** The filter and paging parameters that take a whole number; each has its own `invalid_<name>` code. */
type IntegerParameter = 'min_years' | 'min_da' | 'min_tf' | 'max_length' | 'min_alt_tlds' | 'limit' | 'offset';

/** Every error code the parsing gives (the app's error catalogue must hold each: its appError takes them). */
export type FeedFilterErrorCode =
  | `invalid_${IntegerParameter | 'status' | 'sort' | 'hyphens' | 'digits' | 'contains' | 'tld'}`
  | 'invalid_date'
  | 'invalid_date_range'
  | 'unknown_tld'
  | 'drops_filter_needs_pending_delete';

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

const INTEGER = /^\d+$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// ISO 8601 date-time with an explicit offset (or Z), seconds and fraction optional.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function integerParam(query: FeedQueryInput, name: IntegerParameter, min: number, max: number): number | null {
  const raw = query[name];
  if (raw === undefined) return null;
  if (!INTEGER.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new FeedFilterError(
      `invalid_${name}`,
      `${name} must be a whole number from ${min} to ${max}; got "${raw}".`,
      {
        details: {
          parameter: name,
          min,
          max,
        },
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
      details: {
        parameter: name,
        allowed,
      },
    });
  }
  return raw as T;
}

/** `true` (the default: allowed) or `false` (excluded); anything else is a 400. */
function allowedParam(query: FeedQueryInput, name: 'hyphens' | 'digits'): false | null {
  const raw = query[name];
  if (raw === undefined || raw === 'true') return null;
  if (raw === 'false') return false;
  throw new FeedFilterError(`invalid_${name}`, `${name} must be true or false; got "${raw}".`, {
    details: { parameter: name },
  });
}

const LABEL_TEXT = /^[a-z0-9-]{1,63}$/;

/** A plain substring of the label: letters, digits and hyphens only, so it can never be a pattern. */
function containsParam(query: FeedQueryInput): string | null {
  const raw = query.contains;
  if (raw === undefined) return null;
  const text = raw.trim().toLowerCase();
  if (!LABEL_TEXT.test(text)) {
    throw new FeedFilterError(
      'invalid_contains',
      `contains must be 1-63 letters, digits or hyphens (plain text, no wildcards); got "${raw}".`,
      { details: { parameter: 'contains' } },
    );
  }
  return text;
}

function dateRange(after: number | null, before: number | null, afterName: string, beforeName: string): void {
  if (after !== null && before !== null && after >= before) {
    throw new FeedFilterError('invalid_date_range', `${afterName} must be earlier than ${beforeName}.`, {
      details: { parameter: afterName },
    });
  }
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
      {
        details: {
          parameter: 'tld',
          unknown,
          tracked,
        },
      },
    );
  }
  return tlds;
}

export function parseFeedFilters(query: FeedQueryInput, trackedTlds: readonly string[]): FeedFilters {
  const filters: FeedFilters = {
    tlds: tldParam(query, trackedTlds),
    minYears: integerParam(query, 'min_years', 0, 100),
    minDa: integerParam(query, 'min_da', 0, 100),
    minTf: integerParam(query, 'min_tf', 0, 100),
    droppedAfter: dateParam(query, 'dropped_after'),
    droppedBefore: dateParam(query, 'dropped_before'),
    status: enumParam(query, 'status', FEED_STATUSES, 'dropped'),
    maxLength: integerParam(query, 'max_length', 1, 63),
    hyphens: allowedParam(query, 'hyphens'),
    digits: allowedParam(query, 'digits'),
    contains: containsParam(query),
    minAltTlds: integerParam(query, 'min_alt_tlds', 0, 100),
    dropsAfter: dateParam(query, 'drops_after'),
    dropsBefore: dateParam(query, 'drops_before'),
  };
  dateRange(filters.droppedAfter, filters.droppedBefore, 'dropped_after', 'dropped_before');
  dateRange(filters.dropsAfter, filters.dropsBefore, 'drops_after', 'drops_before');
  if ((filters.dropsAfter !== null || filters.dropsBefore !== null) && filters.status !== 'pending-delete') {
    throw new FeedFilterError(
      'drops_filter_needs_pending_delete',
      'drops_after and drops_before filter on the expected drop of pending-delete names; add status=pending-delete.',
      { details: { parameter: filters.dropsAfter !== null ? 'drops_after' : 'drops_before' } },
    );
  }
  return filters;
}

export function parseFeedPage(query: FeedQueryInput): FeedPage {
  return {
    sort: enumParam(query, 'sort', FEED_SORTS, 'dropped_at'),
    limit: integerParam(query, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT,
    offset: integerParam(query, 'offset', 0, MAX_OFFSET) ?? 0,
  };
}
