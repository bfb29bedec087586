import { type Static, Type } from 'typebox';
import { Literals } from '../schema-helpers.ts';

export const SUGGESTION_KINDS = [
  'exact',
  'tld_swap',
  'domain_hack',
  'plural',
  'hyphenated',
  'prefix',
  'suffix',
] as const;
export const SuggestionKind = Literals(SUGGESTION_KINDS);
export type SuggestionKind = Static<typeof SuggestionKind>;

/** One name of /v1/suggest: confirmed available by its registry (RDAP, or port-43 WHOIS for TLDs without RDAP). */
export const Suggestion = Type.Object({
  domain: Type.String({ description: 'ASCII (punycode) name' }),
  unicode_domain: Type.String({ description: 'The name in Unicode (equal to domain for ASCII names)' }),
  tld: Type.String(),
  available: Type.Literal(true, { description: 'Always true: only names confirmed available are returned' }),
  source: Type.String({ description: "What confirmed it: `rdap` or `whois` (the registry's own answer)" }),
  server: Type.Optional(
    Type.String({ description: 'The registry server that said so (RDAP base URL or WHOIS host:port)' }),
  ),
  cached: Type.Optional(Type.Boolean({ description: 'Repeated from an earlier answer (checked_at says when)' })),
  score: Type.Number({ description: 'Ranking score 0–100, higher is better (see the suggestions guide)' }),
  kind: SuggestionKind,
  checked_at: Type.String({ format: 'date-time' }),
});
export type Suggestion = Static<typeof Suggestion>;

/** What a suggestion run did, given in /v1/suggest's `meta` beside the request id. */
export const SuggestionStats = Type.Object({
  tlds: Type.Array(Type.String(), { description: 'TLDs searched, most preferred first' }),
  candidates: Type.Integer({ description: 'Candidate names generated' }),
  screened: Type.Integer({ description: 'Candidates looked up in the zone index' }),
  in_zone: Type.Integer({ description: 'Screened candidates found in the latest zone snapshot (dropped)' }),
  checked: Type.Integer({
    description: 'Names asked of their registry (RDAP or WHOIS), or of the cache of its answer',
  }),
  unconfirmed: Type.Integer({ description: 'Checked names without a reliable answer (left out)' }),
  deadline_reached: Type.Boolean({ description: 'The time budget cut the search short' }),
});
export type SuggestionStats = Static<typeof SuggestionStats>;

export const SuggestMeta = Type.Object(
  { request_id: Type.String(), ...SuggestionStats.properties },
  { additionalProperties: true },
);
export type SuggestMeta = Static<typeof SuggestMeta>;
