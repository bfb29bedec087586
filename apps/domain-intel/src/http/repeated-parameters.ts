import type { FastifyInstance } from 'fastify';
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
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema?.querystring as
      | { properties?: Record<string, PropertySchema> }
      | undefined;
    const declared = schema?.properties;
    const query = request.query as Record<string, unknown> | undefined;
    if (!declared || !query) {
      done();
      return;
    }
    for (const [name, value] of Object.entries(query)) {
      const property = declared[name];
      if (Array.isArray(value) && property && !takesList(property)) {
        done(
          appError('invalid_request', `The query parameter ${name} is given more than once; give it once.`, {
            details: { parameter: name },
          }),
        );
        return;
      }
    }
    done();
  });
}
