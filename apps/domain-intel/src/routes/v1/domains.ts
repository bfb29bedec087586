import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import {
  EnvelopeWithMeta,
  FeedFilterQuery,
  FeedListMeta,
  FeedPageQuery,
  FeedRecord,
} from '@repo/contracts/domain-intel';
import { parseFeedFilters, parseFeedPage } from '../../feed/filters.ts';
import { ok } from '../../http/envelope.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

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
    async (request) => {
      const query = request.query;
      const filters = parseFeedFilters(query, app.ctx.config.TRACKED_TLDS);
      const page = parseFeedPage(query);
      const { records, total } = await app.ctx.feed.list(filters, page);
      return ok(request, records, { total, limit: page.limit, offset: page.offset, sort: page.sort });
    },
  );
};

export default domainsRoute;
