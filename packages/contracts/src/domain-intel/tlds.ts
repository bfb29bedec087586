import { type Static, Type } from 'typebox';
import { Literals, Nullable } from '../schema-helpers.ts';

export const TLD_TYPES = [
  'generic',
  'country-code',
  'sponsored',
  'generic-restricted',
  'infrastructure',
  'test',
] as const;
export const RDAP_SERVER_ORIGINS = ['override', 'iana', 'extra'] as const;

/** One TLD of the root zone and how this service answers for names under it (GET /v1/tlds). */
export const TldInfo = Type.Object({
  tld: Type.String({ description: 'ASCII form (xn-- for IDN TLDs)' }),
  unicode_tld: Type.String({ description: 'The TLD in Unicode (equal to tld for ASCII TLDs)' }),
  type: Literals(TLD_TYPES, { description: "IANA's root-zone database type" }),
  rdap: Nullable(
    Type.Object({
      servers: Type.Array(Type.String(), { description: 'RDAP base URLs, in the order asked' }),
      origin: Literals(RDAP_SERVER_ORIGINS, {
        description:
          "Where they come from: the operator's RDAP_BOOTSTRAP_OVERRIDES, IANA's bootstrap file, or the " +
          'built-in table of servers registries publish beyond it (RDAP_EXTRA_SERVERS)',
      }),
    }),
    { description: 'null when no RDAP server is known' },
  ),
  whois: Nullable(
    Type.Object({
      server: Type.String({ description: 'The port-43 server asked, as host:port' }),
      authority: Type.String({ description: "The TLD's own WHOIS server as IANA's root-zone database names it" }),
      answer_patterns: Type.Boolean({
        description:
          "Whether we hold this server's own texts (no such domain, throttled, reserved), read off real answers",
      }),
    }),
    { description: 'null when IANA names no WHOIS server and none is configured' },
  ),
  answered_by: Nullable(Literals(['rdap', 'whois'] as const), {
    description: 'The protocol /v1/check and /v1/whois use for this TLD (RDAP first); null: neither is known',
  }),
  availability: Literals(['full', 'registered_only', 'none'] as const, {
    description:
      '`full`: /v1/check can answer available and registered; `registered_only`: the WHOIS server is asked but ' +
      'we hold no table of its own "no such domain" text, so a free name stays `available: null`; `none`: no server',
  }),
  whois_record: Type.Boolean({ description: '/v1/whois returns a structured record for registered names' }),
  drop_feed: Type.Boolean({ description: 'The drop feed tracks the zone (TRACKED_TLDS)' }),
});
export type TldInfo = Static<typeof TldInfo>;

export const TldDataSources = Type.Object({
  root_zone: Type.String({ description: "Version of IANA's TLD list the table was built from" }),
  rdap_bootstrap_loaded: Type.Boolean({ description: "Whether IANA's RDAP bootstrap file could be loaded" }),
});

const ErrorSide = (side: 'early' | 'late', when: string) =>
  Type.Object(
    {
      count: Type.Integer({ description: `Drops verified ${when}` }),
      p50_minutes: Nullable(
        Type.Number({ description: `Median of how many minutes ${side} (nearest rank, one decimal); null: none` }),
      ),
      p90_minutes: Nullable(
        Type.Number({ description: `90th percentile of how many minutes ${side} (nearest rank); null: none` }),
      ),
    },
    { description: `The drops verified ${when}: minutes ${side} are |error|` },
  );

/** A tracked TLD's learned deletion batch and how far its drop forecasts were off (GET /v1/tlds/{tld}/drops). */
export const TldDrops = Type.Object({
  tld: Type.String({ description: 'ASCII form (xn-- for IDN TLDs)' }),
  drop_feed: Type.Boolean({
    description: 'The drop feed tracks the zone (TRACKED_TLDS); false: no batch is learned, the calendar is empty',
  }),
  batch_time: Nullable(
    Type.String({
      pattern: '^\\d{2}:\\d{2}$',
      description: "The registry's daily deletion batch time (HH:MM UTC) the forecasts are planned from",
    }),
  ),
  batch_time_source: Nullable(
    Literals(['configured', 'learned'] as const, {
      description:
        '`configured`: RDAP_PURGE_TIMES; `learned`: from the registry’s own dates (five pending-delete moves ' +
        'agreeing within 10 minutes); null: neither yet (forecasts then carry a ±12 h window)',
    }),
  ),
  calendar: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date', description: 'UTC day' }),
      first: Type.String({ pattern: '^\\d{2}:\\d{2}$', description: 'Earliest pending-delete move seen (HH:MM UTC)' }),
      last: Type.String({ pattern: '^\\d{2}:\\d{2}$', description: 'Latest pending-delete move seen (HH:MM UTC)' }),
    }),
    {
      description:
        "The batch calendar of the last 30 days, oldest first: per day on which the registry's own `last changed` " +
        'dates of names entering pending delete were seen, the earliest and latest of them',
    },
  ),
  forecast_error: Type.Object(
    {
      from: Type.String({ format: 'date-time', description: 'Start of the period (30 days back)' }),
      to: Type.String({ format: 'date-time', description: 'End of the period (now)' }),
      drops: Type.Integer({ description: 'Drops verified in the period that had a published forecast' }),
      early: ErrorSide('early', 'before their forecast (error < 0)'),
      late: ErrorSide('late', 'at or after their forecast (error ≥ 0)'),
      inside_window_share: Nullable(
        Type.Number({
          minimum: 0,
          maximum: 1,
          description:
            'Share of the drops verified inside the window published with the forecast ' +
            '(expected_drop_earliest ≤ verified ≤ expected_drop_latest); null without drops',
        }),
      ),
    },
    {
      description:
        'Error = when RDAP verified the drop − the expected_drop_at published before it, in minutes (positive: late)',
    },
  ),
});
export type TldDrops = Static<typeof TldDrops>;
