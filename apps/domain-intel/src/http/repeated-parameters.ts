import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { appError } from '../error-catalogue.ts';

interface PropertySchema {
  type?: string | string[];
  anyOf?: PropertySchema[];
}

/** Whether a parameter's schema lets it be a list (so giving it twice is how a list is sent). */
function takesList(schema: PropertySchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('array') || (schema.anyOf ?? []).some(takesList);
}

/**
 * A query parameter given twice (`?min_da=10&min_da=20`) reaches a route as a list, and the
 * schema would answer "min_da must be string". Every route whose querystring schema declares
 * the parameter as one value says what happened instead: 400 `invalid_request`, "given more
 * than once". Parameters a route does not declare are left to the route (it ignores or refuses
 * them), and so are those declared as lists.
 */
export function refuseRepeatedQueryParameters(app: FastifyInstance): void {
  // A hook on each route that declares single-valued query parameters, with their names looked up
  // once: the routes without any (most calls) pay nothing.
  app.addHook('onRoute', (route) => {
    const declared = (route.schema?.querystring as { properties?: Record<string, PropertySchema> } | undefined)
      ?.properties;
    const single = new Set(
      Object.entries(declared ?? {})
        .filter(([, property]) => !takesList(property))
        .map(([name]) => name),
    );
    if (single.size === 0) return;
    const refuseRepeated: preValidationHookHandler = (request, _reply, done) => {
      const query = request.query as Record<string, unknown> | undefined;
      for (const name in query) {
        if (Array.isArray(query[name]) && single.has(name)) {
          done(
            appError('invalid_request', `The query parameter ${name} is given more than once; give it once.`, {
              details: { parameter: name },
            }),
          );
          return;
        }
      }
      done();
    };
    const existing = route.preValidation;
    route.preValidation = existing
      ? [...(Array.isArray(existing) ? existing : [existing]), refuseRepeated]
      : refuseRepeated;
  });
}
