import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { CreatedDeliveryTarget, DeliveryTarget, Envelope } from '@repo/contracts/domain-intel';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { IdParams, managementErrors, notCounted } from './shared.ts';

/** /account/targets: where saved filters and account events are delivered (Enterprise). */
const targetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { targets } = app.ctx;

  app.get(
    '/targets',
    {
      config: notCounted,
      schema: {
        summary: 'Your delivery targets',
        tags: ['management'],
        response: { 200: Envelope(Type.Array(DeliveryTarget)), ...managementErrors },
      },
    },
    async (request) => ok(request, await targets.list(callerOf(request).accountId)),
  );

  app.post(
    '/targets',
    {
      config: notCounted,
      schema: {
        summary: 'Add a delivery target (Enterprise)',
        description:
          'A `webhook` (public https URL; the answer holds its signing secret, shown only once), an `email` ' +
          'address, or an `sftp` URL (sftp://user@host:port/directory; add the `public_key` of the answer to ' +
          "the user's authorized_keys). Webhook targets also receive the account events (see the webhooks section).",
        tags: ['management'],
        body: Type.Object({ kind: DeliveryTarget.properties.kind, address: Type.String({ maxLength: 2_000 }) }),
        response: { 201: Envelope(CreatedDeliveryTarget), ...managementErrors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(ok(request, await targets.create(callerOf(request), request.body))),
  );

  app.delete(
    '/targets/:id',
    {
      config: notCounted,
      schema: {
        summary: 'Remove a delivery target',
        tags: ['management'],
        params: IdParams,
        response: { 204: Type.Null(), ...managementErrors },
      },
    },
    async (request, reply) => {
      await targets.remove(callerOf(request).accountId, request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default targetsRoutes;
