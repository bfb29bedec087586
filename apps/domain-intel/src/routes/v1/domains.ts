import { Type } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { parseFeedFilters, parseFeedPage } from '../../feed/filters.ts';
import { FeedFilterQuery, FeedPageQuery, FeedRecordSchema } from '../../feed/schemas.ts';
import { ok } from '../../http/envelope.ts';
import { Envelope, keyedErrorResponses } from '../../http/schemas.ts';

export default async function domainsRoute(app: FastifyInstance): Promise<void> {
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
        response: { 200: Envelope(Type.Array(FeedRecordSchema)), ...keyedErrorResponses },
      },
    },
    async (request) => {
      const query = request.query as Record<string, string | undefined>;
      const filters = parseFeedFilters(query, app.ctx.config.TRACKED_TLDS);
      const page = parseFeedPage(query);
      const { records, total } = await app.ctx.feed.list(filters, page);
      return ok(request, records, { total, limit: page.limit, offset: page.offset, sort: page.sort });
    },
  );
}
