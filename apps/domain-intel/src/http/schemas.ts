import { type TSchema, type TUnsafe, Type } from '@fastify/type-provider-typebox';
import { type ErrorEnvelope, errorEnvelopeOf } from '@repo/contracts/domain-intel';
import { errorCatalogue } from '../error-catalogue.ts';

/** Every status some catalogue code answers with, ascending. */
export const ERROR_STATUSES: readonly number[] = [...new Set(errorCatalogue.entries.map((entry) => entry.status))].sort(
  (a, b) => a - b,
);

/** The OpenAPI component name of an error status's envelope. */
export const errorComponentId = (status: number): string => `Error${status}`;

/**
 * One schema per error status (`Error404`, …), registered with the server: the error envelope
 * with `code` limited to the catalogue's codes of that status, so a generated client can switch
 * on them and the reference can never list a code the catalogue does not have.
 */
export const errorSchemas: TSchema[] = ERROR_STATUSES.map((status) => {
  const codes = errorCatalogue.codesWithStatus(status);
  // One `enum` rather than a union of constants: the form OpenAPI tools render as a list of values.
  return errorEnvelopeOf(Type.Unsafe<string>({ type: 'string', enum: codes }), {
    $id: errorComponentId(status),
    description: `Error ${status}; error.code is one of ${codes.join(', ')} (see /docs/errors)`,
  });
});

/**
 * The responses of the given error statuses, each a reference to its component and typed as the
 * error envelope (a bare `Type.Ref` is `unknown` to TypeScript, which would switch off the
 * route's return-type check). A status no catalogue code answers with is refused at start-up.
 */
export function errorResponses<const Statuses extends readonly number[]>(
  ...statuses: Statuses
): { [S in Statuses[number]]: TUnsafe<ErrorEnvelope> } {
  const responses: Record<number, TUnsafe<ErrorEnvelope>> = {};
  for (const status of statuses) {
    if (!ERROR_STATUSES.includes(status)) throw new Error(`No error code of the catalogue answers with ${status}.`);
    responses[status] = Type.Unsafe<ErrorEnvelope>(Type.Ref(errorComponentId(status)));
  }
  return responses as { [S in Statuses[number]]: TUnsafe<ErrorEnvelope> };
}

/** The error responses a keyed /v1 route can give besides its own. */
export const keyedErrorResponses = errorResponses(400, 401, 403, 429, 503);
