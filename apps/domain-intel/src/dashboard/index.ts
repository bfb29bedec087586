import { randomBytes } from 'node:crypto';
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import { AppError, toPublicError } from '@repo/server-kit';
import type { FastifyError, FastifyInstance } from 'fastify';
import { appError } from '../error-catalogue.ts';
import { accountRoutes } from './account-routes.ts';
import { assetRoutes } from './assets.ts';
import { billingRoutes } from './billing-routes.ts';
import { feedRoutes } from './feed-routes.ts';
import { DashboardSessions } from './session-store.ts';
import { signInLinkRoutes } from './sign-in-link-routes.ts';
import { SignInLinks } from './sign-in-links.ts';
import { CSRF_COOKIE, cookieOptions, noStore } from './viewer.ts';

const CSRF_ERRORS = new Set(['FST_CSRF_INVALID_TOKEN', 'FST_CSRF_MISSING_SECRET']);

/**
 * The account dashboard at /dashboard: server-rendered pages for signed-in accounts. It reads
 * the accounts, quota and feed services directly and never takes a unit of API quota.
 */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const { config, database, clock, redis } = app.ctx;
  const sessions = new DashboardSessions(database.db, clock, config.DASHBOARD_SESSION_HOURS * 3_600_000);

  await app.register(cookie, { secret: config.DASHBOARD_COOKIE_SECRET ?? randomBytes(32).toString('hex') });
  await app.register(formbody, { bodyLimit: 4096 });
  // Double-submit: a secret in a signed, HttpOnly cookie and a token derived from it in every form.
  await app.register(csrfProtection, { cookieKey: CSRF_COOKIE, cookieOpts: { ...cookieOptions(), signed: true } });
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'dashboard-sign-in:' } : {}),
    errorResponseBuilder: (_request, context) =>
      appError('rate_limited', `Too many sign-in attempts from this address. Try again in ${context.after}.`, {
        headers: { 'Retry-After': String(Math.ceil(context.ttl / 1000)) },
      }),
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = CSRF_ERRORS.has(error.code)
      ? appError(
          'invalid_csrf_token',
          'This form has expired or was not sent from this site. Reload the page and try again.',
        )
      : error;
    const publicError = toPublicError(known);
    if (publicError.status >= 500) request.log.error({ err: error }, 'dashboard request failed');
    else request.log.info({ code: publicError.code, status: publicError.status }, 'dashboard request rejected');
    if (known instanceof AppError) for (const [name, value] of Object.entries(known.headers)) reply.header(name, value);
    return noStore(reply.status(publicError.status)).view('dashboard/error', { error: publicError });
  });

  // Pages for people, not API operations: kept out of /openapi.json.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  assetRoutes(app);
  accountRoutes(app, sessions);
  billingRoutes(app, sessions);
  feedRoutes(app, sessions);
  signInLinkRoutes(app, sessions, new SignInLinks(database.db, clock));
}
