import type { ErrorEnvelope } from '@repo/contracts/domain-intel';
import type { PublicError } from '@repo/server-kit';
import type { FastifyRequest } from 'fastify';

/** Success envelope of every /v1 route: `{data, meta: {request_id, …}}`. */
export function ok<T, M extends Record<string, unknown> = Record<never, never>>(
  request: FastifyRequest,
  data: T,
  meta?: M,
): { data: T; meta: { request_id: string } & M } {
  return { data, meta: { request_id: request.id, ...(meta as M) } };
}

/** Error envelope: `{error: {code, message, request_id, docs}}`; `requestId` is also sent as X-Request-Id. */
export function renderError(error: PublicError, requestId: string): ErrorEnvelope {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      docs: `/docs/errors#${error.code}`,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}
