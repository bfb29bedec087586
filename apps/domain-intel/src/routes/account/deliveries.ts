import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Delivery, Envelope } from '@repo/contracts/domain-intel';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { IdParams, managementErrors, notCounted } from './shared.ts';

/** /account/deliveries/{id}/redeliver: sends a delivered or dead-lettered message again. */
const deliveriesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/deliveries/:id/redeliver',
    {
      config: notCounted,
      schema: {
        summary: 'Send a delivered or dead-lettered batch again',
        description:
          'The same message (same webhook-id and body) goes to the same target, with a new 24-hour retry window.',
        tags: ['management'],
        params: IdParams,
        response: { 200: Envelope(Delivery), ...managementErrors },
      },
    },
    async (request) => ok(request, await app.ctx.outbox.redeliver(callerOf(request).accountId, request.params.id)),
  );
};

export default deliveriesRoutes;
