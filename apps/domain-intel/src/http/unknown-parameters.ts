import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { appError } from '../error-catalogue.ts';
import { errorResponses } from './schemas.ts';

/**
 * Parameters a route reads without declaring them, only to refuse them with a message of its own
 * (the export's paging: `unsupported_parameter`, "drop limit"). They pass this check so that
 * message is the one the caller gets.
 */
const REFUSED_BY_THE_ROUTE: Readonly<Record<string, readonly string[]>> = {
  '/v1/domains/export': ['limit', 'offset', 'sort'],
};

/**
 * A query parameter a route does not declare is answered `400 unknown_parameter`, naming it and
 * the parameters the route takes, instead of being ignored: `?min_age=5` on /v1/domains would
 * otherwise return the unfiltered feed as if the filter held. Installed on a scope (the /v1 API),
 * before its routes: each route's accepted names are read once from its querystring schema, and
 * the route documents the 400 in OpenAPI. Hidden routes (the CORS preflight) are left alone.
 */
export function refuseUnknownQueryParameters(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    const schema = route.schema;
    if (schema?.hide || route.method === 'OPTIONS') return;
    const declared = (schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
    const accepted = Object.keys(declared ?? {});
    const known = new Set([...accepted, ...(REFUSED_BY_THE_ROUTE[route.url] ?? [])]);
    const refuseUnknown: preValidationHookHandler = (request, _reply, done) => {
      const query = request.query as Record<string, unknown> | undefined;
      for (const name in query) {
        if (known.has(name)) continue;
        const takes = accepted.length > 0 ? `it takes ${accepted.join(', ')}` : 'it takes no query parameters';
        done(
          appError('unknown_parameter', `${request.method} ${route.url} has no parameter "${name}"; ${takes}.`, {
            details: { parameter: name, accepted },
          }),
        );
        return;
      }
      done();
    };
    const existing = route.preValidation;
    route.preValidation = existing
      ? [refuseUnknown, ...(Array.isArray(existing) ? existing : [existing])]
      : refuseUnknown;
    if (schema) route.schema = { ...schema, response: { ...errorResponses(400), ...(schema.response as object) } };
  });
}
