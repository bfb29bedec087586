import type { FastifyInstance } from 'fastify';
import { errorResponses } from './schemas.ts';

/**
 * Adds to every documented route the error responses the framework gives it whatever its
 * handler does, so the OpenAPI document lists every answer of every route:
 * - 400 when it takes parameters or a body (validation, a parameter given twice, bad JSON);
 * - 413 and 415 when it takes a body (too large, a content type it does not read);
 * - 429 and 503 when it is limited per client address (over the limit; the limit's Redis
 *   store unreachable).
 * Install before the routes are registered. What a handler itself answers (whois's 404, sign-up's
 * 409, the keyed routes' 401/403/429) stays in the route's own schema, which wins on a clash.
 */
export function documentFrameworkErrors(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema;
    if (!schema || schema.hide) return;
    const statuses: number[] = [];
    if (schema.querystring || schema.params || schema.body) statuses.push(400);
    if (schema.body) statuses.push(413, 415);
    if (route.config?.rateLimit) statuses.push(429, 503);
    if (statuses.length === 0) return;
    route.schema = { ...schema, response: { ...errorResponses(...statuses), ...(schema.response as object) } };
  });
}
