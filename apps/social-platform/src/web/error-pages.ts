import { toPublicError, unmatchedRouteError } from '@repo/server-kit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderApiError } from '../api/envelope.ts';
import { renderPage } from './render.ts';

const CSRF_ERRORS = new Set(['FST_CSRF_INVALID_TOKEN', 'FST_CSRF_MISSING_SECRET']);

/**
 * Errors of the web pages are pages: a visitor who must log in is sent to the login form,
 * a refused form token asks to reload, anything the visitor sent wrong says what, and
 * anything else is a 500 page whose details go to the log only.
 *
 * This handler also sees the errors of requests no route matched, raised before the not-found
 * handler runs: Fastify reads the body of every request, so a malformed, oversized or
 * unparseable body sent to `POST /token.php` fails here. Such a request is answered as its
 * address and method are, whatever its body (405 with Allow, or 404): the body of a method the
 * address does not take is never the problem to fix. On the API's addresses, in the envelope.
 */
export function installWebErrorPages(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (request.is404) return answerUnmatched(request, reply);
    const publicError = toPublicError(error);
    if (publicError.code === 'login_required' && request.method === 'GET') {
      return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 303);
    }
    if (CSRF_ERRORS.has(error.code)) {
      request.log.info({ code: error.code }, 'form token refused');
      return renderPage(
        request,
        reply,
        'error.eta',
        {
          title: 'This form has expired',
          message: 'For your safety the form could not be accepted. Go back, reload the page and send it again.',
        },
        403,
      );
    }
    if (publicError.status >= 500) request.log.error({ err: error }, 'page failed');
    return renderPage(
      request,
      reply,
      'error.eta',
      {
        title: publicError.status >= 500 ? 'Something went wrong' : errorTitle(publicError.status),
        message: publicError.message,
      },
      publicError.status,
    );
  });
}

/** Paths of the Application API, its documents and files: their 404 stays the API's JSON envelope. */
const API_PATHS = /^\/(api\.php|token\.php|openapi\.json|media\/|icons\/|health|metrics)/;

/**
 * An unknown address is an HTML "not found" page for a person, and the API's JSON envelope
 * for an app calling a misspelt script or file; a known address with a method it does not take
 * is a 405 with Allow, in the same two forms.
 */
export function installWebNotFoundPage(app: FastifyInstance): void {
  app.setNotFoundHandler(answerUnmatched);
}

async function answerUnmatched(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0] ?? '/';
  const publicError = unmatchedRouteError(request, reply);
  if (API_PATHS.test(path)) return reply.status(publicError.status).send(renderApiError(publicError));
  if (publicError.code === 'method_not_allowed') {
    return renderPage(
      request,
      reply,
      'error.eta',
      { title: 'Not allowed here', message: publicError.message },
      publicError.status,
    );
  }
  return renderPage(
    request,
    reply,
    'error.eta',
    { title: 'Not found', message: 'There is no page at this address. It may have moved, or the link is mistyped.' },
    404,
  );
}

function errorTitle(status: number): string {
  if (status === 404) return 'Not found';
  if (status === 403) return 'Not allowed';
  if (status === 401) return 'Please log in';
  if (status === 413) return 'Too large';
  if (status === 429) return 'Slow down';
  return 'That did not work';
}
