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
