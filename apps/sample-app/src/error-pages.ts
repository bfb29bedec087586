import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeError } from './errors.ts';
import { PlatformApiError } from './platform-client.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/**
 * Every failure becomes an HTML page with the right status: what the platform said when it
 * refused a call, what was wrong with the request, or a generic 500 whose details go to the log.
 *
 * Two refusals of the platform get their own page:
 * - the token ended (expired after TOKEN_TTL_SECONDS, revoked, app removed): the session is
 *   dropped and the page offers "Open the app again", which asks the platform (through
 *   /js/canvas.js) to reload the canvas with a fresh key;
 * - 429 (the platform's per-app-and-user limit): the page says when to try again and passes
 *   Retry-After on, instead of retrying and adding to the load.
 */
export function installErrorPages(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof PlatformApiError) {
      request.log.warn({ code: error.code, status: error.status }, 'platform refused a call');
      if (error.isAuthFailure) return renderReopen(request, reply, error.message, error.code);
      if (error.isRateLimited) {
        const seconds = error.retryAfterSeconds ?? 60;
        reply.header('Retry-After', String(seconds));
        return reply.status(429).view('error.eta', {
          title: 'The platform asks the app to slow down',
          message: `Too many requests in a short time. Try again in ${seconds} seconds.`,
          code: error.code,
          retryUrl: request.method === 'GET' ? request.url : '/home',
        });
      }
      const status = error.status >= 500 ? error.status : 502;
      return reply.status(status).view('error.eta', {
        title: 'The platform refused the request',
        message: error.message,
        code: error.code,
      });
    }
    const described = describeError(error);
    if (described.status >= 500) request.log.error({ err: error }, 'request failed');
    if (described.code === 'session_ended') return renderReopen(request, reply, described.message, described.code);
    return reply.status(described.status).view('error.eta', {
      title: described.status >= 500 ? 'Something went wrong' : 'That did not work',
      message: described.message,
      code: described.code,
    });
  });

  app.setNotFoundHandler(async (request, reply) => {
    return reply.status(404).view('error.eta', {
      title: 'Not found',
      message: `There is no page at ${request.url.split('?')[0]}.`,
      code: 'not_found',
    });
  });
}

/** 401: the session and its token are over; the page asks the platform to open the app again. */
function renderReopen(request: FastifyRequest, reply: FastifyReply, message: string, code: string) {
  const { sessions, config } = request.server.sample;
  const sessionId = request.cookies[SESSION_COOKIE];
  const appId = sessions.get(sessionId)?.appId;
  if (sessionId) sessions.delete(sessionId);
  const platform = new URL(config.PLATFORM_URL.endsWith('/') ? config.PLATFORM_URL : `${config.PLATFORM_URL}/`);
  return reply.status(401).view('error.eta', {
    title: 'Please open the app again',
    message,
    code,
    reopenUrl: new URL(appId && /^\d+$/.test(appId) ? `apps/${appId}` : 'apps', platform).toString(),
  });
}
