import { Type } from 'typebox';

/**
 * The feed's query parameters on the wire, written once: /v1/domains, /v1/export, saved filters,
 * the dashboard's feed explorer, the SDK, the guide's parameter table and the error catalogue's
 * feed codes all take them from here. Values arrive as strings; @repo/feed-index's FEED_FILTERS
 * gives each filter its meaning (parsing, SQL, index), keyed by these parameters, and the compiler
 * refuses a filter that has only one of its two halves.
 */
/** `new`: names that entered a tracked zone and were not in it the day before (not part of `any`, the drop feed). */
export const FEED_STATUSES = ['dropped', 'pending-delete', 'redemption', 'left-zone', 'any', 'new'] as const;
export const FEED_SORTS = ['dropped_at', 'age', 'da', 'tf', 'alt_tld_count'] as const;
export type FeedStatus = (typeof FEED_STATUSES)[number];
export type FeedSort = (typeof FEED_SORTS)[number];

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 50;
export const MAX_OFFSET = 10_000;

/** What a catalogued error code of the feed means and what the caller should do (all answer 400). */
export interface FeedQueryErrorText {
  readonly meaning: string;
  readonly action: string;
}

/**
 * How a filter's value is written: the SDK types its field by this (tld-list: string or string[],
 * whole-number: number, date: string or Date, allowed: boolean, the rest: string) and the
 * dashboard's explorer draws its input by it.
 */
export type FeedFilterValue = 'tld-list' | 'whole-number' | 'date' | 'status' | 'allowed' | 'label-text';

/** One query parameter: what OpenAPI and the guide say of it, and the error codes it answers with. */
interface FeedParameterWire {
  /** One line for OpenAPI and the guide; a whole-number parameter's range is appended to it. */
  readonly description: string;
  /** Every code a bad value answers with, with its catalogue text (the app's catalogue takes it from here). */
  readonly errors: Readonly<Record<string, FeedQueryErrorText>>;
  /** A whole number's inclusive range (the parser's and the dashboard input's). */
  readonly range?: { readonly min: number; readonly max: number };
}

/** One filter on the wire. */
export interface FeedFilterWire extends FeedParameterWire {
  readonly value: FeedFilterValue;
  /** Its field's label in the dashboard's feed explorer; null: not on that form. */
  readonly formLabel: string | null;
}

// Codes more than one parameter answers with (and other routes: the zones' dates, suggest's TLDs).
const INVALID_DATE = {
  invalid_date: {
    meaning: 'A date is not an ISO date (2026-03-01) or date-time with offset (2026-03-01T06:00:00Z).',
    action: 'Write the date in one of those forms.',
  },
} as const;
const DATE_RANGE = {
  ...INVALID_DATE,
  invalid_date_range: {
    meaning: 'The after-date of a range (dropped_after, drops_after) is not earlier than its before-date.',
    action: 'Swap or correct the two dates.',
  },
} as const;
const PENDING_DELETE_DATE_RANGE = {
  ...DATE_RANGE,
  drops_filter_needs_pending_delete: {
    meaning: 'drops_after and drops_before filter on the expected drop of pending-delete names only.',
    action: 'Add status=pending-delete.',
  },
} as const;
const PERCENT = { min: 0, max: 100 } as const;
const LABEL_LENGTH = { min: 1, max: 63 } as const;

/**
 * Every feed filter's wire half, in the order the reference lists them (and the explorer, within
 * each kind of input). To add a filter: an entry here and its entry in @repo/feed-index FEED_FILTERS.
 */
export const FEED_FILTER_WIRE = {
  tld: {
    description: 'Comma-separated tracked TLDs, e.g. `com,net`',
    value: 'tld-list',
    formLabel: 'TLD',
    errors: {
      unknown_tld: {
        meaning: 'A TLD that is unknown, or that the feed does not track.',
        action: 'Use one of the TLDs the message lists.',
      },
      invalid_tld: {
        meaning: 'The tld parameter is empty or malformed.',
        action: 'Give a comma-separated list such as com,net.',
      },
    },
  },
  min_years: {
    description: 'Minimum archive age in years',
    value: 'whole-number',
    range: PERCENT,
    formLabel: 'Min. age (years)',
    errors: {
      invalid_min_years: {
        meaning: 'min_years is not a whole number in range.',
        action: 'Give a whole number from 0 to 100.',
      },
    },
  },
  min_da: {
    description: 'Minimum Moz DA',
    value: 'whole-number',
    range: PERCENT,
    formLabel: 'Min. DA',
    errors: {
      invalid_min_da: {
        meaning: 'min_da is not a whole number in range.',
        action: 'Give a whole number from 0 to 100.',
      },
    },
  },
  min_tf: {
    description: 'Minimum Majestic TF',
    value: 'whole-number',
    range: PERCENT,
    formLabel: 'Min. TF',
    errors: {
      invalid_min_tf: {
        meaning: 'min_tf is not a whole number in range.',
        action: 'Give a whole number from 0 to 100.',
      },
    },
  },
  dropped_after: {
    description: 'Dropped at or after this ISO date or date-time',
    value: 'date',
    formLabel: 'Dropped after',
    errors: DATE_RANGE,
  },
  dropped_before: {
    description: 'Dropped before this ISO date or date-time',
    value: 'date',
    formLabel: 'Dropped before',
    errors: DATE_RANGE,
  },
  status: {
    description: `One of ${FEED_STATUSES.join(', ')} (default dropped: RDAP-verified drops only; new: new registrations)`,
    value: 'status',
    formLabel: 'Status',
    errors: {
      invalid_status: { meaning: 'status is not one of the feed statuses.', action: 'Use a value the message lists.' },
    },
  },
  max_length: {
    description: 'Longest label in characters',
    value: 'whole-number',
    range: LABEL_LENGTH,
    formLabel: 'Max. length',
    errors: {
      invalid_max_length: {
        meaning: 'max_length is not a whole number from 1 to 63.',
        action: 'Give a whole number from 1 to 63.',
      },
    },
  },
  hyphens: {
    description: '`false`: only labels without a hyphen (default true: either)',
    value: 'allowed',
    formLabel: 'No hyphens',
    errors: {
      invalid_hyphens: { meaning: 'hyphens is not true or false.', action: 'Give hyphens=true or hyphens=false.' },
    },
  },
  digits: {
    description: '`false`: only labels without a digit (default true: either)',
    value: 'allowed',
    formLabel: 'No digits',
    errors: {
      invalid_digits: { meaning: 'digits is not true or false.', action: 'Give digits=true or digits=false.' },
    },
  },
  contains: {
    description: 'Plain text the label must contain (letters, digits, hyphens; no wildcards)',
    value: 'label-text',
    formLabel: 'Contains',
    errors: {
      invalid_contains: {
        meaning: 'contains is not 1-63 letters, digits or hyphens.',
        action: 'Give plain text (no wildcards), e.g. contains=shop.',
      },
    },
  },
  starts_with: {
    description: 'Plain text the label must start with (letters, digits, hyphens; no wildcards)',
    value: 'label-text',
    formLabel: 'Starts with',
    errors: {
      invalid_starts_with: {
        meaning: 'starts_with is not 1-63 letters, digits or hyphens.',
        action: 'Give plain text (no wildcards), e.g. starts_with=shop.',
      },
    },
  },
  ends_with: {
    description: 'Plain text the label must end with (letters, digits, hyphens; no wildcards)',
    value: 'label-text',
    formLabel: 'Ends with',
    errors: {
      invalid_ends_with: {
        meaning: 'ends_with is not 1-63 letters, digits or hyphens.',
        action: 'Give plain text (no wildcards), e.g. ends_with=shop.',
      },
    },
  },
  min_alt_tlds: {
    description: 'At least this many other tracked TLDs where the label is registered',
    value: 'whole-number',
    range: PERCENT,
    formLabel: 'Min. alt. TLDs',
    errors: {
      invalid_min_alt_tlds: {
        meaning: 'min_alt_tlds is not a whole number in range.',
        action: 'Give a whole number from 0 to 100.',
      },
    },
  },
  // Not on the explorer form: they need status=pending-delete, which the form does not pair them with.
  drops_after: {
    description: 'With status=pending-delete: expected to drop at or after this ISO date or date-time',
    value: 'date',
    formLabel: null,
    errors: PENDING_DELETE_DATE_RANGE,
  },
  drops_before: {
    description: 'With status=pending-delete: expected to drop before this ISO date or date-time',
    value: 'date',
    formLabel: null,
    errors: PENDING_DELETE_DATE_RANGE,
  },
} as const satisfies Record<string, FeedFilterWire>;

/** Order and paging of a feed page, on the wire. */
export const FEED_PAGE_WIRE = {
  sort: {
    description: `One of ${FEED_SORTS.join(', ')} (default dropped_at, newest first; age: oldest first; the others: highest first; unknown values last, ties by domain)`,
    errors: {
      invalid_sort: { meaning: 'sort is not one of the sort orders.', action: 'Use a value the message lists.' },
    },
  },
  limit: {
    description: `Rows per page, default ${DEFAULT_LIMIT}`,
    range: { min: 1, max: MAX_LIMIT },
    errors: {
      invalid_limit: {
        meaning: 'limit is not a whole number in range.',
        action: 'Give a whole number in the range the message names.',
      },
    },
  },
  offset: {
    description: 'Rows to skip',
    range: { min: 0, max: MAX_OFFSET },
    errors: {
      invalid_offset: {
        meaning: 'offset is not a whole number in range.',
        action: 'Give a whole number in the range the message names.',
      },
    },
  },
} as const satisfies Record<string, FeedParameterWire>;

export type FeedFilterParameter = keyof typeof FEED_FILTER_WIRE;
export type FeedPageParameter = keyof typeof FEED_PAGE_WIRE;
type FeedParameter = FeedFilterParameter | FeedPageParameter;
type WireOf<P extends FeedParameter> = P extends FeedFilterParameter
  ? (typeof FEED_FILTER_WIRE)[P]
  : (typeof FEED_PAGE_WIRE)[P & FeedPageParameter];

/** The filter parameters whose value is of this kind (e.g. every `label-text` filter). */
export type FeedFiltersOfValue<V extends FeedFilterValue> = {
  [P in FeedFilterParameter]: (typeof FEED_FILTER_WIRE)[P]['value'] extends V ? P : never;
}[FeedFilterParameter];

/** Every code a feed parameter answers with (each in the app's catalogue, which takes FEED_QUERY_ERRORS). */
export type FeedQueryErrorCode = { [P in FeedParameter]: keyof WireOf<P>['errors'] & string }[FeedParameter];

/** Every filter parameter's name, in the order the reference lists them. */
export const FEED_FILTER_PARAMETERS = Object.keys(FEED_FILTER_WIRE) as FeedFilterParameter[];
/** The paging parameters' names. */
export const FEED_PAGE_PARAMETERS = Object.keys(FEED_PAGE_WIRE) as FeedPageParameter[];

const wireOf = (parameter: FeedParameter): FeedParameterWire =>
  (FEED_FILTER_WIRE as Record<string, FeedParameterWire>)[parameter] ?? FEED_PAGE_WIRE[parameter as FeedPageParameter];

/** A parameter's one-line description, its range included (`Minimum Moz DA (0-100)`). */
export function describeFeedParameter(parameter: FeedParameter): string {
  const { description, range } = wireOf(parameter);
  return range ? `${description} (${range.min}-${range.max})` : description;
}

/** The codes a parameter answers with, in the order written. */
export const feedParameterErrorCodes = (parameter: FeedParameter) =>
  Object.keys(wireOf(parameter).errors) as FeedQueryErrorCode[];

const text = (parameter: FeedParameter) =>
  Type.Optional(Type.String({ description: describeFeedParameter(parameter) }));

/** The filters as a querystring schema (the export and saved filters take exactly these). */
export const FeedFilterQuery = Object.fromEntries(
  FEED_FILTER_PARAMETERS.map((parameter) => [parameter, text(parameter)]),
) as Record<FeedFilterParameter, ReturnType<typeof text>>;

/** Order and paging of a feed page, as a querystring schema. */
export const FeedPageQuery = Object.fromEntries(
  FEED_PAGE_PARAMETERS.map((parameter) => [parameter, text(parameter)]),
) as Record<FeedPageParameter, ReturnType<typeof text>>;

/** Every feed error code with its catalogue entry (a code two parameters share is written once, in a constant above). */
export const FEED_QUERY_ERRORS = Object.fromEntries(
  [...FEED_FILTER_PARAMETERS, ...FEED_PAGE_PARAMETERS].flatMap((parameter) =>
    Object.entries(wireOf(parameter).errors).map(([code, errorText]) => [code, { status: 400, ...errorText }]),
  ),
) as { readonly [C in FeedQueryErrorCode]: FeedQueryErrorText & { readonly status: 400 } };
