import type { PublicError } from '@repo/server-kit';
import type { FastifyRequest } from 'fastify';

/** Success envelope of every /v1 route: `{data, meta: {request_id, …}}`. */
export function ok<T>(request: FastifyRequest, data: T, meta: Record<string, unknown> = {}) {
  return { data, meta: { request_id: request.id, ...meta } };
}

/** Error envelope: `{error: {code, message, request_id, docs}}`. */
export function renderError(error: PublicError, request: FastifyRequest) {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: request.id,
      docs: `/docs/errors#${error.code}`,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}
