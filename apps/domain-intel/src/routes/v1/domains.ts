import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import {
  EnvelopeWithMeta,
  FeedFilterQuery,
  FeedListMeta,
  FeedPageQuery,
  FeedRecord,
} from '@repo/contracts/domain-intel';
import { parseFeedFilters, parseFeedPage } from '../../feed/feed-params.ts';
import { feedPageJson } from '../../feed/feed-row-json.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

/** What Fastify sets for an answer it serializes itself. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const domainsRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/domains',
    {
      schema: {
        summary: 'The confirmed-dropped domain feed',
        description:
          'By default only drops verified by RDAP (the registry no longer has the name), newest first. ' +
          'Out-of-range or malformed parameters are a 400 with a code naming the parameter.',
        tags: ['feed'],
        querystring: Type.Object({ ...FeedFilterQuery, ...FeedPageQuery }),
        response: { 200: EnvelopeWithMeta(Type.Array(FeedRecord), FeedListMeta), ...keyedErrorResponses },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const filters = parseFeedFilters(query, app.ctx.config.TRACKED_TLDS);
      const page = parseFeedPage(query);
      const { records, total } = await app.ctx.feed.listJson(filters, page);
      const meta = { request_id: request.id, total, limit: page.limit, offset: page.offset, sort: page.sort };
      // The records are JSON already (the text the response schema's serializer would write, at a
      // tenth of its cost); the schema above still documents the answer, so the typed send takes a string only by a cast.
      return reply.type(JSON_CONTENT_TYPE).send(feedPageJson(records, meta) as never);
    },
  );
};

export default domainsRoute;
