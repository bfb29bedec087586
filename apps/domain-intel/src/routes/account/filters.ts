import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { Envelope, SavedFilter } from '@repo/contracts/domain-intel';
import { callerOf } from '../../http/caller-of.ts';
import { ok } from '../../http/envelope.ts';
import { IdParams, managementErrors, notCounted } from './shared.ts';

/** /account/filters: the account's saved filters ("custom filters"). */
const filtersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { savedFilters } = app.ctx;

  app.get(
    '/filters',
    {
      config: notCounted,
      schema: {
        summary: 'Your saved filters',
        tags: ['management'],
        response: { 200: Envelope(Type.Array(SavedFilter)), ...managementErrors },
      },
    },
    async (request) => ok(request, await savedFilters.list(callerOf(request).accountId, callerOf(request).plan)),
  );

  app.post(
    '/filters',
    {
      config: notCounted,
      schema: {
        summary: 'Save a filter',
        description:
          'Any combination of the /v1/domains filters, as a query string (`tld=com&min_da=20`) or an object. ' +
          'Its new matches are delivered after every daily run and hourly round to its targets (Enterprise) ' +
          'and shown in the dashboard. The plan table limits how many an account keeps (403 plan_limit_reached). ' +
          'With `brand` (a label without TLD, at least 3 characters) only the rows whose label resembles it are ' +
          'delivered, each with `match: {brand, kind, label}` (docs/design/brand-alerts.md).',
        tags: ['management'],
        body: Type.Object({
          name: Type.String({ maxLength: 200 }),
          filter: Type.Union([
            Type.String({ maxLength: 2_000 }),
            Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
          ]),
          brand: Type.Optional(
            Type.String({
              maxLength: 500,
              description:
                'A brand term, e.g. `paypal` (a label without TLD; IDN allowed): brand alerts with lookalikes',
            }),
          ),
          target_ids: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
        }),
        response: { 201: Envelope(SavedFilter), ...managementErrors },
      },
    },
    async (request, reply) => {
      const { name, filter, brand, target_ids } = request.body;
      const view = await savedFilters.create(callerOf(request), {
        name,
        filter,
        brand,
        targetIds: target_ids ?? [],
      });
      return reply.status(201).send(ok(request, view));
    },
  );

  app.delete(
    '/filters/:id',
    {
      config: notCounted,
      schema: {
        summary: 'Delete a saved filter',
        tags: ['management'],
        params: IdParams,
        response: { 204: Type.Null(), ...managementErrors },
      },
    },
    async (request, reply) => {
      await savedFilters.remove(callerOf(request).accountId, request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default filtersRoutes;
