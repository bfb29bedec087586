import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type FrameworkErrorCode, frameworkErrors } from './error-catalogue.ts';
import { type AppError, isAppError } from './errors.ts';
import { isRedisUnavailable } from './redis.ts';
import { trackRouteMethods } from './route-methods.ts';

/** What the caller is told: always one of these, whatever went wrong. */
export interface PublicError {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown> | undefined;
}

/** Each service renders errors into its own envelope. */
export type ErrorRenderer = (error: PublicError, request: FastifyRequest, reply: FastifyReply) => unknown;

/** Maps Fastify's own client errors (bad JSON, too large, wrong content type …) to codes. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: FrameworkErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_body', message: 'The JSON body is empty.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_body', message: 'The body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_body' },
  FST_ERR_BAD_URL: {
    code: 'invalid_url',
    message:
      'The URL path has a broken percent-encoding (a % not followed by two hex digits); write a % itself as %25.',
  },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'invalid_url', message: 'A part of the URL path is longer than 512 characters.' },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'invalid_request' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: 'invalid_body', message: 'The request is not multipart/form-data.' },
  FST_REQ_FILE_TOO_LARGE: { code: 'payload_too_large', message: 'The uploaded file is too large.' },
  FST_FILES_LIMIT: { code: 'payload_too_large', message: 'Too many files in one request.' },
  FST_PARTS_LIMIT: { code: 'payload_too_large', message: 'Too many parts in one request.' },
  FST_FIELDS_LIMIT: { code: 'payload_too_large', message: 'Too many fields in one request.' },
};

/** A Fastify 4xx we have no mapping for keeps a code of its status where the catalogue has one. */
const CODE_BY_STATUS: Record<number, FrameworkErrorCode> = {
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'request_too_large',
};

/** A public error of one of the codes server-kit answers itself, its status from the catalogue. */
export function frameworkError(code: FrameworkErrorCode, message: string): PublicError {
  return { status: frameworkErrors.entry(code).status, code, message };
}

/** Seconds a caller is asked to wait when a backing service is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * An infrastructure failure the caller can do nothing about but retry (Redis unreachable) as
 * the error to answer: 503 `service_unavailable` with Retry-After; undefined for anything else.
 */
export function asServiceUnavailable(error: unknown): AppError | undefined {
  if (!isRedisUnavailable(error)) return undefined;
  return frameworkErrors.appError(
    'service_unavailable',
    `The service cannot reach its shared counters (Redis) right now. Retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds.`,
    { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) }, cause: error },
  );
}

export function toPublicError(error: unknown): PublicError {
  if (isAppError(error)) {
    return { status: error.status, code: error.code, message: error.message, details: error.details };
  }
  const fastifyError = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (fastifyError?.validation) return frameworkError('invalid_request', describeValidation(fastifyError));
  const status = fastifyError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known = fastifyError.code ? FASTIFY_CLIENT_ERRORS[fastifyError.code] : undefined;
    return frameworkError(
      known?.code ?? CODE_BY_STATUS[status] ?? 'invalid_request',
      known?.message ?? fastifyError.message,
    );
  }
  return frameworkError('internal_error', 'An internal error occurred. It has been logged.');
}

function describeValidation(error: FastifyError & { validationContext?: string }): string {
  // Fastify's message reads like "querystring/limit must be <= 100"; make the part readable.
  const message = error.message.replace(/^(querystring|params|body|headers)\/?/, '');
  const where = error.validationContext === 'querystring' ? 'query parameter' : (error.validationContext ?? 'input');
  return `Invalid ${where}: ${message.trim()}`;
}

/**
 * Installs one error path for a service: known errors are rendered with their code,
 * everything else becomes a 500 whose details go to the log only.
 */
export function installErrorHandling(
  app: FastifyInstance,
  render: ErrorRenderer,
  options: {
    /** false: a plugin of the service answers unknown addresses itself (the platform's HTML 404 page). */
    notFound?: boolean;
  } = {},
): void {
  app.setErrorHandler((thrown, request, reply) => {
    const unavailable = asServiceUnavailable(thrown);
    const error = unavailable ?? thrown;
    const publicError = toPublicError(error);
    if (publicError.code === 'service_unavailable') {
      // The Redis client reports the outage once; one line per refused call is enough here.
      request.log.info({ code: publicError.code, status: publicError.status }, 'request refused: Redis unreachable');
    } else if (publicError.status >= 500 && !isAppError(error)) {
      // A bug or an unforeseen failure: the whole error, stack included, for whoever investigates.
      request.log.error({ err: error }, 'request failed');
    } else if (publicError.status >= 500) {
      // A failure we name (an upstream down): worth a warning, not a stack trace per request.
      request.log.warn(
        { code: publicError.code, status: publicError.status, reason: publicError.message },
        'request failed',
      );
    } else {
      request.log.info({ code: publicError.code, status: publicError.status }, 'request rejected');
    }
    if (isAppError(error)) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    }
    reply.status(publicError.status).send(render(publicError, request, reply));
  });

  trackRouteMethods(app);
  if (options.notFound !== false) installNotFound(app, render);

  // onSend sees every response, even those failing before routing; callback style, because an
  // async hook would cost a promise on every response.
  app.addHook('onSend', (request, reply, payload, done) => {
    // Lowercase, as Fastify keeps header names: one given so is not lowercased into a new string per response.
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}

/**
 * What a request no route matched is told: 405 `method_not_allowed` when the path exists with
 * other methods (they go into the Allow header), else 404 `not_found`.
 */
export function unmatchedRouteError(request: FastifyRequest, reply: FastifyReply): PublicError {
  const path = request.url.split('?')[0] ?? '/';
  const allowed = request.server.allowedMethods(request.url);
  // A route of this method that calls the not-found handler itself (a missing static file) is a 404.
  if (allowed.length === 0 || allowed.includes(request.method)) {
    return frameworkError('not_found', `No route ${request.method} ${path}.`);
  }
  reply.header('Allow', allowed.join(', '));
  return frameworkError(
    'method_not_allowed',
    `${path} does not take ${request.method}; it takes ${allowed.join(', ')}.`,
  );
}

function installNotFound(app: FastifyInstance, render: ErrorRenderer): void {
  app.setNotFoundHandler((request, reply) => {
    const publicError = unmatchedRouteError(request, reply);
    reply.status(publicError.status).send(render(publicError, request, reply));
  });
}
