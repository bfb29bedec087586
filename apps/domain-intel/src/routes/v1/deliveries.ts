import { Type } from '@fastify/type-provider-typebox';
import { Envelope } from '@repo/contracts/domain-intel';
import type { FastifyInstance } from 'fastify';
import { DeliveryRecord } from '../../delivery/schemas.ts';
import { appError } from '../../error-catalogue.ts';
import { ok } from '../../http/envelope.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

const MAX_LIMIT = 100;
const MAX_OFFSET = 10_000;

function integer(
  raw: string | undefined,
  name: 'limit' | 'offset',
  min: number,
  max: number,
  fallback: number,
): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw appError(`invalid_${name}`, `${name} must be a whole number from ${min} to ${max}; got "${raw}".`, {
      details: {
        parameter: name,
      },
    });
  }
  return Number(raw);
}

export default async function deliveriesRoute(app: FastifyInstance): Promise<void> {
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
          limit: Type.Optional(Type.String({ description: `1-${MAX_LIMIT} (default 50)` })),
          offset: Type.Optional(Type.String({ description: `0-${MAX_OFFSET}` })),
        }),
        response: { 200: Envelope(Type.Array(DeliveryRecord)), ...keyedErrorResponses },
      },
    },
    async (request) => {
      const query = request.query as { filter_id?: string; limit?: string; offset?: string };
      const limit = integer(query.limit, 'limit', 1, MAX_LIMIT, 50);
      const offset = integer(query.offset, 'offset', 0, MAX_OFFSET, 0);
      const log = await app.ctx.outbox.log(request.caller!.accountId, {
        ...(query.filter_id ? { filterId: query.filter_id } : {}),
        limit,
        offset,
      });
      return ok(request, log, { limit, offset });
    },
  );
}
