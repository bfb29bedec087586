import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry secrets: the platform's one-time key and any token. */
const SECRET_PARAMETERS = /([?&](?:key|token|signature)=)[^&#]*/gi;

/** A URL as it may be logged: the values of secret parameters replaced. */
export const redactUrl = (url: string): string => url.replace(SECRET_PARAMETERS, '$1[REDACTED]');

/**
 * Fastify's logger (pino) with the canvas URL's one-time key, tokens and cookies kept out of
 * the log: a key in a log line is as good as a key in the address bar.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization'], censor: '[REDACTED]' },
    serializers: {
      req: (request: { method: string; url: string; headers?: unknown }) => ({
        method: request.method,
        url: redactUrl(request.url),
      }),
    },
  };
}
