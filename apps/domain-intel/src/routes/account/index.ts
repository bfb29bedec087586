import type { FastifyInstance } from 'fastify';
import bulkChecks from './bulk-checks.ts';
import deliveries from './deliveries.ts';
import filters from './filters.ts';
import targets from './targets.ts';
import watchlist from './watchlist.ts';

/**
 * The JSON management API at /account (the spec keeps /v1 read-only): saved filters, delivery
 * targets, redelivery, the watchlist and bulk availability jobs, with the same bearer key as /v1 and never counted
 * against the quota. The dashboard offers the same through forms, the CLI for operators.
 */
export async function accountApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(filters);
  await app.register(targets);
  await app.register(deliveries);
  await app.register(watchlist);
  await app.register(bulkChecks);
}
