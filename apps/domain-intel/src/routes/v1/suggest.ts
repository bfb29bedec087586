import { Type } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

const SuggestQuery = Type.Object({
  keyword: Type.Optional(
    Type.String({
      description: 'Words, spaces, hyphens; any script (IDN). Up to 100 characters.',
      examples: ['coffee shop'],
    }),
  ),
  tld: Type.Optional(
    Type.String({
      description: 'Comma-separated TLDs, most preferred first. Default: the tracked TLDs and the popular ones.',
      examples: ['com,io'],
    }),
  ),
});

const Suggestion = Type.Object({
  domain: Type.String({ description: 'ASCII (punycode) name' }),
  unicode_domain: Type.String({ description: 'The name in Unicode (equal to domain for ASCII names)' }),
  tld: Type.String(),
  available: Type.Literal(true, { description: 'Always true: only names confirmed available are returned' }),
  source: Type.String({ description: 'What confirmed it (RDAP, or the cache of an RDAP answer)' }),
  score: Type.Number({ description: 'Ranking score 0–100, higher is better (see the suggestions guide)' }),
  kind: Type.Union(
    ['exact', 'tld_swap', 'domain_hack', 'plural', 'hyphenated', 'prefix', 'suffix'].map((kind) => Type.Literal(kind)),
  ),
  checked_at: Type.String({ format: 'date-time' }),
});

const SuggestMeta = Type.Object(
  {
    request_id: Type.String(),
    tlds: Type.Array(Type.String(), { description: 'TLDs searched, most preferred first' }),
    candidates: Type.Integer({ description: 'Candidate names generated' }),
    screened: Type.Integer({ description: 'Candidates looked up in the zone index' }),
    in_zone: Type.Integer({ description: 'Screened candidates found in the latest zone snapshot (dropped)' }),
    checked: Type.Integer({ description: 'Names confirmed by RDAP' }),
    unconfirmed: Type.Integer({ description: 'Checked names without a reliable answer (left out)' }),
    deadline_reached: Type.Boolean({ description: 'The time budget cut the search short' }),
  },
  { additionalProperties: true },
);

export default async function suggestRoute(app: FastifyInstance): Promise<void> {
  app.get(
    '/suggest',
    {
      schema: {
        summary: 'Available domain names for a keyword',
        description:
          'Up to 20 names built from the keyword (the keyword itself in each TLD, hyphenated and plural forms, ' +
          'prefixes and suffixes, domain hacks), screened against the latest zone snapshots and confirmed ' +
          'available by RDAP, best first. Counts as one call.',
        tags: ['suggestions'],
        querystring: SuggestQuery,
        response: { 200: Type.Object({ data: Type.Array(Suggestion), meta: SuggestMeta }), ...keyedErrorResponses },
      },
    },
    async (request) => {
      const { keyword, tld } = request.query as { keyword?: string; tld?: string };
      const run = await app.ctx.suggestions.suggest({ keyword, tld });
      return ok(request, run.suggestions, run.stats);
    },
  );
}
