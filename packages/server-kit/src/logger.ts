import type { FastifyLoggerOptions } from 'fastify';
import type { LoggerOptions } from 'pino';

/** Query parameters that carry secrets in one of our APIs (one-time keys, tokens). */
const SECRET_QUERY_PARAMS = ['key', 'token', 'api_key', 'password'];

/** Replaces the values of secret query parameters in a URL with `[REDACTED]`. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  let changed = false;
  for (const name of SECRET_QUERY_PARAMS) {
    if (params.has(name)) {
      params.set(name, '[REDACTED]');
      changed = true;
    }
  }
  // URLSearchParams would percent-encode the brackets; keep the marker readable in logs.
  return changed ? `${url.slice(0, queryStart)}?${params.toString().replaceAll('%5BREDACTED%5D', '[REDACTED]')}` : url;
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
        '*.password',
        '*.key',
        '*.token',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req(request: { method: string; url: string; hostname?: string; ip?: string; id?: string }) {
        return { method: request.method, url: redactUrl(request.url), host: request.hostname, ip: request.ip };
      },
    },
  };
}
