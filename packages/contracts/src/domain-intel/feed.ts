import { type Static, Type } from 'typebox';
import { Nullable } from '../schema-helpers.ts';

/** One dropped-domain record: the same shape in /v1/domains, /v1/sample and each line of the export. */
export const FeedRecord = Type.Object({
  domain: Type.String({ examples: ['oldbrand.com'] }),
  tld: Type.String(),
  status: Type.String({
    description: 'left-zone, redemption, pending-delete, dropped, returned, re-registered or new',
  }),
  dropped_at: Nullable(
    Type.String({ format: 'date-time', description: 'When RDAP first verified the drop (to the second)' }),
  ),
  first_archived: Nullable(Type.String({ format: 'date', description: 'First Wayback Machine capture' })),
  age_years: Nullable(Type.Number({ description: 'Years since the first capture, one decimal, rounded down' })),
  alt_tld_count: Nullable(Type.Integer({ description: 'Other tracked TLDs where the same label is registered' })),
  alt_tlds: Type.Array(Type.String()),
  da: Nullable(Type.Integer({ description: 'Moz Domain Authority (null when unknown)' })),
  tf: Nullable(Type.Integer({ description: 'Majestic Trust Flow (null when unknown)' })),
  length: Type.Integer({ description: 'Characters in the label' }),
  has_hyphen: Type.Boolean(),
  has_digit: Type.Boolean(),
  verified_at: Nullable(Type.String({ format: 'date-time', description: 'Last RDAP confirmation of the status' })),
  expected_drop_at: Nullable(
    Type.String({
      format: 'date-time',
      description: 'For pending-delete names: when the registry is expected to purge it (null otherwise)',
    }),
  ),
  first_seen: Nullable(
    Type.String({
      format: 'date',
      description: 'For new names: the date of the zone file in which the name first appeared (null otherwise)',
    }),
  ),
  expected_drop_earliest: Nullable(
    Type.String({
      format: 'date-time',
      description:
        'For pending-delete names: the start of the window the purge is expected in, from the registry’s observed ' +
        'batch times (see GET /v1/tlds/{tld}/drops for how often drops land inside it; null otherwise)',
    }),
  ),
  expected_drop_latest: Nullable(
    Type.String({
      format: 'date-time',
      description: 'For pending-delete names: the end of that window (null otherwise)',
    }),
  ),
});
export type FeedRecord = Static<typeof FeedRecord>;

/** `meta` of a feed page (/v1/domains; /v1/sample has no sort). */
export const FeedListMeta = Type.Object(
  {
    request_id: Type.String(),
    total: Type.Integer({ description: 'Records matching the filters' }),
    limit: Type.Integer({ description: 'Rows per page' }),
    offset: Type.Integer({ description: 'Rows skipped' }),
    sort: Type.Optional(Type.String({ description: 'The order of the rows' })),
  },
  { additionalProperties: true, description: 'Request id, and paging fields on lists' },
);
export type FeedListMeta = Static<typeof FeedListMeta>;
