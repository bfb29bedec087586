import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { EnvelopeWithMeta, ListMeta, WatchedDomain } from '@repo/contracts/domain-intel';
import { ok } from '../../http/envelope.ts';
import { PagingQuery, parsePaging } from '../../http/paging.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

export const WATCHLIST_PAGING = { maxLimit: 1_000, maxOffset: 100_000, defaultLimit: 100 };

const watchlistRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/watchlist',
    {
      config: { quota: 'free' },
      schema: {
        summary: 'Your watched domains with their lifecycle status',
        description:
          'Oldest first: each watched name with its status (registered, left-zone, redemption, pending-delete, ' +
          'available, unknown), expected drop and the last evidence. Add and remove names with ' +
          'POST /account/watchlist and DELETE /account/watchlist/{domain}. Not counted.',
        tags: ['account'],
        querystring: Type.Object(
          PagingQuery(WATCHLIST_PAGING.maxLimit, WATCHLIST_PAGING.maxOffset, WATCHLIST_PAGING.defaultLimit),
        ),
        response: {
          200: EnvelopeWithMeta(
            Type.Array(WatchedDomain),
            ListMeta({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
          ),
          ...keyedErrorResponses,
        },
      },
    },
    async (request) => {
      const { limit, offset } = parsePaging(request.query, WATCHLIST_PAGING);
      const { watches, total } = await app.ctx.watchlist.list(request.caller!, { limit, offset });
      return ok(request, watches, { total, limit, offset });
    },
  );
};

export default watchlistRoute;
