import {
  type FastifyBaseLogger,
  type FastifyLoggerOptions,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { type Logger, type LoggerOptions, pino } from 'pino';

/**
 * Query parameter names that carry secrets in our APIs (one-time keys, tokens) or in the usual
 * conventions of others (OAuth's `access_token` and `code`, `api-key`, signed URLs'
 * `signature`), compared case-insensitively and with any `[…]` suffix removed (`token[]`,
 * `api_key[0]`), since a caller may send any of these by mistake.
 */
const SECRET_QUERY_PARAMS = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'apikey',
  'api-key',
  'api_key',
  'key',
  'token',
  'secret',
  'client_secret',
  'signature',
  'sig',
  'code',
  'password',
  'passwd',
  'pass',
]);

const REDACTED = '[REDACTED]';

/** The parameter name as a server would read it: percent-decoded, lowercase, without a `[…]` suffix. */
function parameterName(rawName: string): string {
  let name = rawName.replaceAll('+', ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A broken escape: compare the name as written.
  }
  return name
    .trim()
    .toLowerCase()
    .replace(/\[[^\]]*\]$/, '');
}

/** Whether a query parameter of this (raw, still encoded) name carries a secret. */
export function isSecretQueryParameter(rawName: string): boolean {
  return SECRET_QUERY_PARAMS.has(parameterName(rawName));
}

/** A name with none of the characters parameterName rewrites is compared as it is. */
const PLAIN_NAME = /^[a-z0-9_-]*$/;

/** Whether a query parameter of this (raw) name carries a secret; a plain name is looked up as it is. */
function isSecretName(name: string): boolean {
  return PLAIN_NAME.test(name) ? SECRET_QUERY_PARAMS.has(name) : isSecretQueryParameter(name);
}

/**
 * Replaces the values of secret query parameters in a URL with `[REDACTED]`, leaving every
 * other byte of the URL as it was sent (so the logged URL still shows what the caller wrote).
 * One walk over the query, names checked in place: nearly every logged URL carries no secret and
 * is returned as it is; one that does (an api.php token) is copied in slices around the values.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const fragmentStart = url.indexOf('#', queryStart);
  const queryEnd = fragmentStart === -1 ? url.length : fragmentStart;
  let redacted: string | undefined;
  let copiedTo = 0;
  for (let at = queryStart + 1; at < queryEnd; ) {
    let next = url.indexOf('&', at);
    if (next === -1 || next > queryEnd) next = queryEnd;
    const equals = url.indexOf('=', at);
    if (equals !== -1 && equals < next && isSecretName(url.slice(at, equals))) {
      redacted = `${redacted ?? ''}${url.slice(copiedTo, equals + 1)}${REDACTED}`;
      copiedTo = next;
    }
    at = next + 1;
  }
  return redacted === undefined ? url : redacted + url.slice(copiedTo);
}

/**
 * pino options shared by both services: Authorization and cookies redacted,
 * secrets stripped from logged URLs, request ids on every line.
 */
export function loggerOptions(level: string): FastifyLoggerOptions & LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'headers.authorization',
        // pino's `*.x` matches one level down only: the top-level fields are named too.
        'password',
        'key',
        'token',
        'secret',
        '*.password',
        '*.key',
        '*.token',
        '*.secret',
      ],
      censor: REDACTED,
    },
    serializers: {
      req(request: { method: string; url: string; hostname?: string; ip?: string; id?: string }) {
        return { method: request.method, url: redactUrl(request.url), host: request.hostname, ip: request.ip };
      },
    },
  };
}

/** `,"name":"value"`, or nothing when the value is missing (as JSON.stringify leaves it out). */
function stringField(name: string, value: string | undefined): string {
  return value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`;
}

type PinoInternals = Record<symbol, unknown>;

/**
 * Writes the completed line of a successful request as pino would (level, time, the logger's
 * bindings, then the fields), built as one string: pino's generic path (serializers, an object per
 * field, a walk over them) cost twice as much. Only for a logger that adds nothing of its own to
 * a line (no mixin, log formatter, write hook, or a stream that wants each line's metadata, as
 * multistream does); `undefined` otherwise, and the line goes through pino.
 */
function completedLineWriter(
  logger: FastifyBaseLogger,
  idLabel: string,
): ((request: FastifyRequest, reply: FastifyReply) => void) | undefined {
  const internals = logger as unknown as PinoInternals;
  const { symbols } = pino;
  const stream = internals[symbols.streamSym] as { write(line: string): unknown } & PinoInternals;
  const formatters = internals[symbols.formattersSym] as { log?: unknown } | undefined;
  const hooks = internals[symbols.hooksSym] as { streamWrite?: unknown } | undefined;
  const plain =
    !internals[symbols.mixinSym] &&
    !formatters?.log &&
    !hooks?.streamWrite &&
    internals[symbols.messageKeySym] === 'msg' &&
    stream?.[symbols.needsMetadataGsym] !== true;
  if (!plain) return undefined;
  const level = (internals[symbols.lsCacheSym] as Record<number, string>)[(logger as Logger).levels.values.info!];
  const time = internals[symbols.timeSym] as () => string;
  const bindings = internals[symbols.chindingsSym] as string;
  const idKey = `,${JSON.stringify(idLabel)}:`;
  return (request, reply) => {
    stream.write(
      // The method is an HTTP token (letters, `-`; Node's parser refuses any other), so it needs no escaping.
      `${level}${time()}${bindings}${idKey}${JSON.stringify(request.id)},"req":{"method":"${request.method}"` +
        `,"url":${JSON.stringify(redactUrl(request.url))}` +
        `${stringField('host', request.hostname)}${stringField('ip', request.ip)}}` +
        `,"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime},"msg":"request completed"}\n`,
    );
  };
}

/**
 * One log line per request, written when it completes (`request completed`, with `req`, `res`
 * and `responseTime`), instead of Fastify's two (`incoming request` and `request completed`):
 * formatting, redacting and writing a line is the largest share of a light call's cost. The
 * line holds only the serialized request (method, URL with secret parameters redacted as the
 * `req` serializer does, host, ip), the status and the time, none of which the redaction paths
 * name, so it is written without them (pino's wildcard paths walk every line they see), as one
 * string where the logger allows (see completedLineWriter). A failed request's line (with its
 * error) goes through pino with the full redaction.
 */
export class OneLinePerRequest extends LogController {
  #writeLine: ((request: FastifyRequest, reply: FastifyReply) => void) | undefined;

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
      return;
    }
    // The request's own logger decides (a route may log at another level; without a logger,
    // Fastify's stand-in has no levels at all); the server's logger writes.
    if (!(request.log as Partial<Logger>).isLevelEnabled?.('info')) return;
    this.#writeLine ??=
      completedLineWriter(request.server.log, this.requestIdLogLabel) ?? this.#throughPino(request.server.log);
    this.#writeLine(request, reply);
  }

  #throughPino(logger: FastifyBaseLogger): (request: FastifyRequest, reply: FastifyReply) => void {
    const accessLog = logger.child({}, { redact: [], level: 'info' });
    const idLabel = this.requestIdLogLabel;
    return (request, reply) => {
      accessLog.info(
        { [idLabel]: request.id, req: request, res: reply, responseTime: reply.elapsedTime },
        'request completed',
      );
    };
  }
}
