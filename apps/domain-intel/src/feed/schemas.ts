import { Type } from '@fastify/type-provider-typebox';
import { FEED_SORTS, FEED_STATUSES, MAX_LIMIT, MAX_OFFSET } from './filters.ts';

const text = (description: string) => Type.Optional(Type.String({ description }));

/** Filter parameters, validated by feed/filters.ts (which gives each its own error code). */
export const FeedFilterQuery = {
  tld: text('Comma-separated tracked TLDs, e.g. `com,net`'),
  min_years: text('Minimum archive age in years (0-100)'),
  min_da: text('Minimum Moz DA (0-100)'),
  min_tf: text('Minimum Majestic TF (0-100)'),
  dropped_after: text('Dropped at or after this ISO date or date-time'),
  dropped_before: text('Dropped before this ISO date or date-time'),
  status: text(`One of ${FEED_STATUSES.join(', ')} (default dropped: RDAP-verified drops only)`),
  max_length: text('Longest label in characters (1-63)'),
  hyphens: text('`false`: only labels without a hyphen (default true: either)'),
  digits: text('`false`: only labels without a digit (default true: either)'),
  contains: text('Plain text the label must contain (letters, digits, hyphens; no wildcards)'),
  min_alt_tlds: text('At least this many other tracked TLDs where the label is registered (0-100)'),
  drops_after: text('With status=pending-delete: expected to drop at or after this ISO date or date-time'),
  drops_before: text('With status=pending-delete: expected to drop before this ISO date or date-time'),
};

export const FeedPageQuery = {
  sort: text(`One of ${FEED_SORTS.join(', ')} (default dropped_at, newest first)`),
  limit: text(`Rows per page, 1-${MAX_LIMIT} (default 50)`),
  offset: text(`Rows to skip, 0-${MAX_OFFSET}`),
};
