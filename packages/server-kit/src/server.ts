import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import closeWithGrace from 'close-with-grace';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { frameworkError, type PublicError } from './error-handler.ts';
import { loggerOptions } from './logger.ts';
import { genReqId } from './request-id.ts';

export interface ServerOptions {
  logLevel: string;
  trustProxy: boolean | number | string[];
  bodyLimit?: number;
  /** Tests pass `false` to keep output quiet. */
  logger?: boolean;
  /** Where log lines go (default stdout); tests read them to check what is logged. */
  logStream?: NodeJS.WritableStream;
  /**
   * Time a client has to send a whole request, body included (0: no limit). A body that
   * stalls is answered 408 `request_timeout` when it runs out, instead of holding a socket.
   */
  requestTimeoutMs?: number;
  /**
   * Renders the errors Node answers before any route runs (a stalled body, headers over
   * 16 KB, a malformed request line) into the service's own JSON body.
   */
  renderClientError?: (error: PublicError) => unknown;
}

/** Node's own client errors, by its error code: what the caller is told. */
const CLIENT_ERRORS: Record<string, PublicError> = {
  ERR_HTTP_REQUEST_TIMEOUT: frameworkError(
    'request_timeout',
    'The request was not received in time; send the whole body without pausing.',
  ),
  HPE_HEADER_OVERFLOW: frameworkError(
    'request_too_large',
    'The request line and headers are larger than 16 KB; send long values in a POST body.',
  ),
  // llhttp refuses bytes a URL may not hold, such as an unencoded ü.
  HPE_INVALID_URL: frameworkError(
    'invalid_url',
    'The URL holds characters a URL may not hold; percent-encode it (münchen.de as m%C3%BCnchen.de).',
  ),
};
const MALFORMED_REQUEST = frameworkError('invalid_request', 'The request is malformed.');

/**
 * Answers a client error on the raw socket, as Fastify's default handler does, but with the
 * service's body, so callers get the same JSON shape as for every other error.
 */
function clientErrorHandler(render: (error: PublicError) => unknown) {
  return function handle(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const publicError = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_REQUEST;
    this.log.info({ code: publicError.code, status: publicError.status }, 'client error');
    if (socket.writable) {
      const body = JSON.stringify(render(publicError));
      socket.write(
        `HTTP/1.1 ${publicError.status} ${STATUS_CODES[publicError.status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

/** Fastify options both services start from. */
export function fastifyOptions(options: ServerOptions): FastifyServerOptions {
  return {
    logger:
      options.logger === false
        ? false
        : { ...loggerOptions(options.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    // Fastify accepts a hop count at run time; its type declaration omits it.
    trustProxy: options.trustProxy as boolean | string[],
    bodyLimit: options.bodyLimit ?? 1_048_576,
    routerOptions: { maxParamLength: 512, ignoreTrailingSlash: true },
    ...(options.requestTimeoutMs
      ? {
          requestTimeout: options.requestTimeoutMs,
          http: {
            // Node looks for timed-out requests at this interval (30 s by default) …
            connectionsCheckingInterval: Math.min(30_000, Math.max(100, options.requestTimeoutMs / 4)),
            // … and gives a request its 60 s header time before the request timeout applies at all.
            headersTimeout: Math.min(60_000, options.requestTimeoutMs),
          },
        }
      : {}),
    ...(options.renderClientError ? { clientErrorHandler: clientErrorHandler(options.renderClientError) } : {}),
    ajv: {
      customOptions: {
        coerceTypes: 'array',
        removeAdditional: false,
        useDefaults: true,
        allErrors: false,
      },
    },
  };
}

export function createFastify(options: ServerOptions): FastifyInstance {
  return Fastify(fastifyOptions(options));
}

/** Listens and closes gracefully on SIGINT/SIGTERM, finishing requests in flight. */
export async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  return app.listen({ host, port });
}
