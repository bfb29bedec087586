import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Envelope, WatchedDomain } from '@repo/contracts/domain-intel';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { WatchlistPage, WatchlistQuery, watchlistPage } from '../v1/watchlist.ts';
import { managementErrors, notCounted } from './shared.ts';

/** /account/watchlist: the names the account watches through the drop lifecycle. */
const watchlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { watchlist } = app.ctx;

  app.get(
    '/watchlist',
    {
      config: notCounted,
      schema: {
        summary: 'Your watched domains',
        description: 'The same list as GET /v1/watchlist.',
        tags: ['management'],
        querystring: WatchlistQuery,
        response: { 200: WatchlistPage, ...managementErrors },
      },
    },
    async (request) => watchlistPage(watchlist, request, request.query),
  );

  app.post(
    '/watchlist',
    {
      config: notCounted,
      schema: {
        summary: 'Watch a domain',
        description:
          'Any name under a TLD whose registry has RDAP, registered or not. It is followed through the ' +
          'lifecycle (zone evidence for tracked TLDs, RDAP re-checks planned by its expected drop) and every ' +
          'move is a `watch.transition` event to your webhook targets. The answer holds the first look ' +
          '(201; 200 when the name was watched already). The plan table limits how many names an account ' +
          'watches (403 plan_limit_reached).',
        tags: ['management'],
        body: Type.Object({ domain: Type.String({ maxLength: 300 }) }),
        response: { 200: Envelope(WatchedDomain), 201: Envelope(WatchedDomain), ...managementErrors },
      },
    },
    async (request, reply) => {
      const { watch, added } = await watchlist.add(callerOf(request), request.body.domain);
      return reply.status(added ? 201 : 200).send(ok(request, watch));
    },
  );

  app.delete(
    '/watchlist/:domain',
    {
      config: notCounted,
      schema: {
        summary: 'Stop watching a domain',
        tags: ['management'],
        params: Type.Object({ domain: Type.String({ maxLength: 300 }) }),
        response: { 204: Type.Null(), ...managementErrors },
      },
    },
    async (request, reply) => {
      await watchlist.remove(callerOf(request).accountId, request.params.domain);
      return reply.status(204).send(null);
    },
  );
};

export default watchlistRoutes;
