import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { EnvelopeWithMeta, Suggestion, SuggestMeta } from '@repo/contracts/domain-intel';
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

const suggestRoute: FastifyPluginAsyncTypebox = async (app) => {
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
        response: { 200: EnvelopeWithMeta(Type.Array(Suggestion), SuggestMeta), ...keyedErrorResponses },
      },
    },
    async (request) => {
      const { keyword, tld } = request.query;
      const run = await app.ctx.suggestions.suggest({ keyword, tld });
      return ok(request, run.suggestions, run.stats);
    },
  );
};

export default suggestRoute;
