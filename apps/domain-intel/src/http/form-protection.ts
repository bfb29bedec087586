import type { CookieSerializeOptions } from '@fastify/cookie';
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import { asServiceUnavailable } from '@repo/server-kit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../error-catalogue.ts';

const CSRF_ERRORS = new Set(['FST_CSRF_INVALID_TOKEN', 'FST_CSRF_MISSING_SECRET']);

/**
 * Cookies of the HTML pages: only the pages under `path` see them; Lax keeps them off
 * cross-site POSTs; `auto` marks them Secure whenever the request came over https (directly or
 * via a trusted proxy).
 */
export const pageCookieOptions = (path: string, maxAgeSeconds?: number): CookieSerializeOptions => ({
  path,
  httpOnly: true,
  sameSite: 'lax',
  secure: 'auto',
  ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
});

/**
 * What every set of HTML forms in this service uses (the dashboard's, the sign-up's): signed
 * cookies, form bodies, and CSRF protection by double submit — a secret in a signed, HttpOnly
 * cookie under `path` and a token derived from it in every form (`reply.generateCsrf()`),
 * checked by `app.csrfProtection`.
 */
export async function registerFormProtection(
  app: FastifyInstance,
  options: { path: string; csrfCookie: string },
): Promise<void> {
  await app.register(cookie, { secret: app.ctx.cookieSecret });
  await app.register(formbody, { bodyLimit: 4096 });
  await app.register(csrfProtection, {
    cookieKey: options.csrfCookie,
    cookieOpts: { ...pageCookieOptions(options.path), signed: true },
  });
}

/**
 * The error to show for a failure on a form page: a refused CSRF token as 403
 * `invalid_csrf_token`, Redis unreachable as 503 `service_unavailable`, anything else as it is.
 */
export function formPageError(error: unknown): unknown {
  if (CSRF_ERRORS.has((error as FastifyError | undefined)?.code ?? '')) {
    return appError(
      'invalid_csrf_token',
      'This form has expired or was not sent from this site. Reload the page and try again.',
    );
  }
  return asServiceUnavailable(error) ?? error;
}

/**
 * CSRF protection for a form route that JSON clients use too: a JSON body cannot come from a
 * cross-site form (a browser sends it only after a CORS preflight, which these pages never
 * allow), so only form-like bodies need the token.
 */
export function csrfUnlessJson(app: FastifyInstance) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (isJsonBody(request)) return done();
    app.csrfProtection(request, reply, done);
  };
}

export const isJsonBody = (request: FastifyRequest) =>
  /^application\/(?:[\w.+-]+\+)?json\b/i.test(request.headers['content-type'] ?? '');
