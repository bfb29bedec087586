import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import closeWithGrace from 'close-with-grace';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { frameworkError, type PublicError, toPublicError } from './error-handler.ts';
import { loggerOptions, OneLinePerRequest } from './logger.ts';
import { genReqId, newRequestId } from './request-id.ts';
import { lazyRequestLoggerFactory } from './request-logger.ts';
import { ROUTER_OPTIONS } from './route-methods.ts';
import { TurnLogDestination } from './turn-log-destination.ts';

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
   * Renders the errors answered before any route runs into the service's own JSON body:
   * Node's (a stalled body, headers over 16 KB, a request line with an unencoded ü) and
   * Fastify's (a broken percent-encoding in the path). `requestId` is also sent as X-Request-Id.
   */
  renderClientError?: (error: PublicError, requestId: string) => unknown;
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

type RenderClientError = NonNullable<ServerOptions['renderClientError']>;

/**
 * Answers a client error on the raw socket, as Fastify's default handler does, but with the
 * service's body and a request id, so callers get the same answer as for every other error.
 * No request could be read, so the id is a new one (it is in the log line too).
 */
function clientErrorHandler(render: RenderClientError) {
  return function handle(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const publicError = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_REQUEST;
    const requestId = newRequestId();
    this.log.info({ code: publicError.code, status: publicError.status, request_id: requestId }, 'client error');
    if (socket.writable) {
      const body = JSON.stringify(render(publicError, requestId));
      socket.write(
        `HTTP/1.1 ${publicError.status} ${STATUS_CODES[publicError.status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\n` +
          `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}

/**
 * Fastify's errors before routing (a path with broken percent-encoding, an over-long path
 * parameter) in the service's body. Fastify made a request for them, so its id is used.
 */
function frameworkErrorHandler(render: RenderClientError) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const publicError = toPublicError(error);
    request.log.info({ code: publicError.code, status: publicError.status }, 'request rejected');
    reply
      .code(publicError.status)
      .header('X-Request-Id', request.id)
      .header('Cache-Control', 'no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .send(render(publicError, request.id));
  };
}

let stdoutDestination: TurnLogDestination | undefined;

/**
 * Stdout, written synchronously on the event loop: one write(2) per turn for all the lines of
 * that turn (TurnLogDestination), shared by every server of the process. pino's own default is
 * asynchronous, and each line then crossed to libuv's thread pool and back (a fs.write request):
 * ~7 µs of the process's CPU per line against ~1 µs for a write(2) per line (platform-api bench,
 * docs/design/platform.md). Nothing is held beyond the turn; see TurnLogDestination for what a hard kill loses.
 */
function stdoutLogDestination(): DestinationStream {
  stdoutDestination ??= new TurnLogDestination(pino.destination({ dest: 1, sync: true }));
  return stdoutDestination;
}

/** Fastify options both services start from. */
export function fastifyOptions(options: ServerOptions): FastifyServerOptions {
  return {
    logger:
      options.logger === false
        ? false
        : { ...loggerOptions(options.logLevel), stream: options.logStream ?? stdoutLogDestination() },
    // pino's child per request, made only when the request writes a line of its own.
    ...(options.logger === false ? {} : { childLoggerFactory: lazyRequestLoggerFactory }),
    genReqId,
    logController: new OneLinePerRequest({ requestIdLogLabel: 'request_id' }),
    // Fastify accepts a hop count at run time; its type declaration omits it.
    trustProxy: options.trustProxy as boolean | string[],
    bodyLimit: options.bodyLimit ?? 1_048_576,
    // Fastify's default of 10 s per plugin is shorter than a start that runs migrations on a big
    // database or meets a busy machine (a CI run at load average 20 timed out reading two small
    // files); a plugin that really hangs is still reported, a minute later.
    pluginTimeout: 60_000,
    routerOptions: ROUTER_OPTIONS,
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
    ...(options.renderClientError
      ? {
          clientErrorHandler: clientErrorHandler(options.renderClientError),
          frameworkErrors: frameworkErrorHandler(options.renderClientError),
        }
      : {}),
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
