import { type FastifyPluginAsyncTypebox, type Static, Type } from '@fastify/type-provider-typebox';
import { EnvelopeWithMeta, ListMeta, WatchedDomain } from '@repo/contracts/domain-intel';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { PagingQuery, parsePaging } from '../../http/paging.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

export const WATCHLIST_PAGING = { maxLimit: 1_000, maxOffset: 100_000, defaultLimit: 100 };

/** The query and the answer of a watchlist page (here and at GET /account/watchlist). */
export const WatchlistQuery = Type.Object(
  PagingQuery(WATCHLIST_PAGING.maxLimit, WATCHLIST_PAGING.maxOffset, WATCHLIST_PAGING.defaultLimit),
);
export const WatchlistPage = EnvelopeWithMeta(
  Type.Array(WatchedDomain),
  ListMeta({ total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
);

/** One page of the caller's watched names, as both routes answer it. */
export async function watchlistPage(
  watchlist: AppContext['watchlist'],
  request: FastifyRequest,
  query: Static<typeof WatchlistQuery>,
) {
  const { limit, offset } = parsePaging(query, WATCHLIST_PAGING);
  const { watches, total } = await watchlist.list(callerOf(request), { limit, offset });
  return ok(request, watches, { total, limit, offset });
}

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
        querystring: WatchlistQuery,
        response: { 200: WatchlistPage, ...keyedErrorResponses },
      },
    },
    async (request) => watchlistPage(app.ctx.watchlist, request, request.query),
  );
};

export default watchlistRoute;
