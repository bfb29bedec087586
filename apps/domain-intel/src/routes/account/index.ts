import { Type } from '@fastify/type-provider-typebox';
import { Envelope } from '@repo/contracts/domain-intel';
import type { FastifyInstance } from 'fastify';
import { CreatedTargetRecord, DeliveryRecord, SavedFilterRecord, TargetRecord } from '../../delivery/schemas.ts';
import { TARGET_KINDS } from '../../delivery/targets.ts';
import { ok } from '../../http/envelope.ts';
import { keyedErrorResponses } from '../../http/schemas.ts';

const errors = { ...keyedErrorResponses, 404: Type.Ref('ErrorEnvelope'), 409: Type.Ref('ErrorEnvelope') };
const free = { quota: 'free' as const };
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/**
 * The JSON management API at /account (the spec keeps /v1 read-only): saved filters, delivery
 * targets and redelivery, with the same bearer key as /v1 and never counted against the quota.
 * The dashboard offers the same through forms.
 */
export async function accountApiRoutes(app: FastifyInstance): Promise<void> {
  const { savedFilters, targets, outbox } = app.ctx;

  app.get(
    '/filters',
    {
      config: free,
      schema: {
        summary: 'Your saved filters',
        tags: ['management'],
        response: { 200: Envelope(Type.Array(SavedFilterRecord)), ...errors },
      },
    },
    async (request) => ok(request, await savedFilters.list(request.caller!.accountId, request.caller!.plan)),
  );

  app.post(
    '/filters',
    {
      config: free,
      schema: {
        summary: 'Save a filter',
        description:
          'Any combination of the /v1/domains filters, as a query string (`tld=com&min_da=20`) or an object. ' +
          'Its new matches are delivered after every daily run and hourly round to its targets (Enterprise) ' +
          'and shown in the dashboard. The plan table limits how many an account keeps.',
        tags: ['management'],
        body: Type.Object({
          name: Type.String({ maxLength: 200 }),
          filter: Type.Union([
            Type.String({ maxLength: 2_000 }),
            Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
          ]),
          target_ids: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
        }),
        response: { 201: Envelope(SavedFilterRecord), ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body as { name: string; filter: string | Record<string, unknown>; target_ids?: string[] };
      const view = await savedFilters.create(request.caller!, {
        name: body.name,
        filter: body.filter,
        targetIds: body.target_ids ?? [],
      });
      return reply.status(201).send(ok(request, view));
    },
  );

  app.delete(
    '/filters/:id',
    {
      config: free,
      schema: {
        summary: 'Delete a saved filter',
        tags: ['management'],
        params: IdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await savedFilters.remove(request.caller!.accountId, (request.params as { id: string }).id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/targets',
    {
      config: free,
      schema: {
        summary: 'Your delivery targets',
        tags: ['management'],
        response: { 200: Envelope(Type.Array(TargetRecord)), ...errors },
      },
    },
    async (request) => ok(request, await targets.list(request.caller!.accountId)),
  );

  app.post(
    '/targets',
    {
      config: free,
      schema: {
        summary: 'Add a delivery target (Enterprise)',
        description:
          'A `webhook` (public https URL; the answer holds its signing secret, shown only once), an `email` ' +
          'address, or an `sftp` URL (sftp://user@host:port/directory; add the `public_key` of the answer to ' +
          "the user's authorized_keys). Webhook targets also receive the account events.",
        tags: ['management'],
        body: Type.Object({
          kind: Type.Union(TARGET_KINDS.map((kind) => Type.Literal(kind))),
          address: Type.String({ maxLength: 2_000 }),
        }),
        response: { 201: Envelope(CreatedTargetRecord), ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body as { kind: string; address: string };
      return reply.status(201).send(ok(request, await targets.create(request.caller!, body)));
    },
  );

  app.delete(
    '/targets/:id',
    {
      config: free,
      schema: {
        summary: 'Remove a delivery target',
        tags: ['management'],
        params: IdParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      await targets.remove(request.caller!.accountId, (request.params as { id: string }).id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/deliveries/:id/redeliver',
    {
      config: free,
      schema: {
        summary: 'Send a delivered or dead-lettered batch again',
        description:
          'The same message (same webhook-id and body) goes to the same target, with a new 24-hour retry window.',
        tags: ['management'],
        params: IdParams,
        response: { 200: Envelope(DeliveryRecord), ...errors },
      },
    },
    async (request) => {
      const view = await outbox.redeliver(request.caller!.accountId, (request.params as { id: string }).id);
      return ok(request, view);
    },
  );
}
