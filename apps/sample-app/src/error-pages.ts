import { toPublicError } from '@repo/server-kit';
import type { FastifyInstance } from 'fastify';
import { PlatformApiError } from './platform-client.ts';

/**
 * Every failure becomes an HTML page with the right status: what the platform said when it
 * refused a call, what was wrong with the request, or a generic 500 whose details go to the log.
 */
export function installErrorPages(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof PlatformApiError) {
      request.log.warn({ code: error.code, status: error.status }, 'platform refused a call');
      const status = error.isAuthFailure ? 401 : error.status >= 500 ? error.status : 502;
      return reply.status(status).view('error.eta', {
        title: error.isAuthFailure ? 'Please open the app again' : 'The platform refused the request',
        message: error.message,
        code: error.code,
        reopen: error.isAuthFailure,
      });
    }
    const publicError = toPublicError(error);
    if (publicError.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.status(publicError.status).view('error.eta', {
      title: publicError.status >= 500 ? 'Something went wrong' : 'That did not work',
      message: publicError.message,
      code: publicError.code,
      reopen: publicError.code === 'session_ended',
    });
  });

  app.setNotFoundHandler(async (request, reply) => {
    return reply.status(404).view('error.eta', {
      title: 'Not found',
      message: `There is no page at ${request.url.split('?')[0]}.`,
      code: 'not_found',
      reopen: false,
    });
  });
}
