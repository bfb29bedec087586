import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { DEFAULT_LIMIT, Delivery, Envelope, MAX_LIMIT, MAX_OFFSET } from '@repo/contracts/domain-intel';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { PagingQuery, parsePaging } from '../../http/paging.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

/** The delivery log pages like the feed. */
const PAGING = { maxLimit: MAX_LIMIT, maxOffset: MAX_OFFSET, defaultLimit: DEFAULT_LIMIT };

const deliveriesRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/deliveries',
    {
      config: { quota: 'free' },
      schema: {
        summary: 'The delivery log of your saved filters and account events',
        description: 'Newest first: each batch per target with its rows, attempts, status and last error. Not counted.',
        tags: ['account'],
        querystring: Type.Object({
          filter_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only this saved filter' })),
          ...PagingQuery(PAGING.maxLimit, PAGING.maxOffset, PAGING.defaultLimit),
        }),
        response: { 200: Envelope(Type.Array(Delivery)), ...keyedErrorResponses },
      },
    },
    async (request) => {
      const { query } = request;
      const { limit, offset } = parsePaging(query, PAGING);
      const log = await app.ctx.outbox.log(callerOf(request).accountId, {
        ...(query.filter_id ? { filterId: query.filter_id } : {}),
        limit,
        offset,
      });
      return ok(request, log, { limit, offset });
    },
  );
};

export default deliveriesRoute;
