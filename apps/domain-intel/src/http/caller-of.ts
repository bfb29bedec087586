import type { FastifyRequest } from 'fastify';
import type { Caller } from '../accounts/caller.ts';

/**
 * The account a keyed route answers for. Authentication sets it before any keyed handler runs, so
 * its absence is a route registered outside the authenticated scopes (/v1, /account): a bug,
 * answered 500 and logged, never a request answered for nobody.
 */
export function callerOf(request: FastifyRequest): Caller {
  if (request.caller === undefined) {
    throw new Error(
      `${request.method} ${request.routeOptions.url}: no caller (is the route outside /v1 and /account?)`,
    );
  }
  return request.caller;
}
