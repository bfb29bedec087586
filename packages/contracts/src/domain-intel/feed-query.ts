import { Type } from 'typebox';

/**
 * The feed's query parameters, written once: /v1/domains, /v1/export, saved filters, the
 * dashboard's feed explorer and the SDK all take them from here. Values arrive as strings and are
 * validated by the server's feed filters, which give each parameter its own error code.
 */
/** `new`: names that entered a tracked zone and were not in it the day before (not part of `any`, the drop feed). */
export const FEED_STATUSES = ['dropped', 'pending-delete', 'redemption', 'left-zone', 'any', 'new'] as const;
export const FEED_SORTS = ['dropped_at', 'age', 'da', 'tf', 'alt_tld_count'] as const;
export type FeedStatus = (typeof FEED_STATUSES)[number];
export type FeedSort = (typeof FEED_SORTS)[number];

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 50;
export const MAX_OFFSET = 10_000;

const text = (description: string) => Type.Optional(Type.String({ description }));

/** The filters (the export and saved filters take exactly these). */
export const FeedFilterQuery = {
  tld: text('Comma-separated tracked TLDs, e.g. `com,net`'),
  min_years: text('Minimum archive age in years (0-100)'),
  min_da: text('Minimum Moz DA (0-100)'),
  min_tf: text('Minimum Majestic TF (0-100)'),
  dropped_after: text('Dropped at or after this ISO date or date-time'),
  dropped_before: text('Dropped before this ISO date or date-time'),
  status: text(
    `One of ${FEED_STATUSES.join(', ')} (default dropped: RDAP-verified drops only; new: new registrations)`,
  ),
  max_length: text('Longest label in characters (1-63)'),
  hyphens: text('`false`: only labels without a hyphen (default true: either)'),
  digits: text('`false`: only labels without a digit (default true: either)'),
  contains: text('Plain text the label must contain (letters, digits, hyphens; no wildcards)'),
  ends_with: text('Plain text the label must end with (letters, digits, hyphens; no wildcards)'),
  min_alt_tlds: text('At least this many other tracked TLDs where the label is registered (0-100)'),
  drops_after: text('With status=pending-delete: expected to drop at or after this ISO date or date-time'),
  drops_before: text('With status=pending-delete: expected to drop before this ISO date or date-time'),
};

/** Order and paging of a feed page. */
export const FeedPageQuery = {
  sort: text(`One of ${FEED_SORTS.join(', ')} (default dropped_at, newest first)`),
  limit: text(`Rows per page, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  offset: text(`Rows to skip, 0-${MAX_OFFSET}`),
};

export type FeedFilterParameter = keyof typeof FeedFilterQuery;
export type FeedPageParameter = keyof typeof FeedPageQuery;

/** Every filter parameter's name, in the order the reference lists them. */
export const FEED_FILTER_PARAMETERS = Object.keys(FeedFilterQuery) as FeedFilterParameter[];
/** The paging parameters' names. */
export const FEED_PAGE_PARAMETERS = Object.keys(FeedPageQuery) as FeedPageParameter[];
