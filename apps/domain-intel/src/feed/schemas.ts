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
};

export const FeedPageQuery = {
  sort: text(`One of ${FEED_SORTS.join(', ')} (default dropped_at, newest first)`),
  limit: text(`Rows per page, 1-${MAX_LIMIT} (default 50)`),
  offset: text(`Rows to skip, 0-${MAX_OFFSET}`),
};
