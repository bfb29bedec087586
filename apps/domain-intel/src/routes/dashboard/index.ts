import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, rateLimitResetAsUnixTime, toPublicError } from '@repo/server-kit';
import type { FastifyError } from 'fastify';
import { DashboardSessions } from '../../dashboard/session-store.ts';
import { SignInLinks } from '../../dashboard/sign-in-links.ts';
import { CSRF_COOKIE, noStore } from '../../dashboard/viewer.ts';
import { appError } from '../../error-catalogue.ts';
import { formPageError, registerFormProtection } from '../../http/form-protection.ts';
import { accountRoutes } from './account.ts';
import { assetRoutes } from './assets.ts';
import { billingRoutes } from './billing.ts';
import { bulkCheckRoutes } from './bulk-checks.ts';
import { deliveryRoutes } from './delivery.ts';
import { feedRoutes } from './feed.ts';
import { forecastRoutes } from './forecasts.ts';
import { signInLinkRoutes } from './sign-in-link.ts';
import { watchlistRoutes } from './watchlist.ts';

/**
 * The account dashboard at /dashboard: server-rendered pages for signed-in accounts. It uses
 * the accounts, quota, feed, delivery and watchlist services directly and never takes a unit of
 * API quota.
 */
export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config, database, clock, redis } = app.ctx;
  const sessions = new DashboardSessions(database.db, clock, config.DASHBOARD_SESSION_HOURS * 3_600_000);

  await registerFormProtection(app, { path: '/dashboard', csrfCookie: CSRF_COOKIE });
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'dashboard-sign-in:' } : {}),
    errorResponseBuilder: (_request, context) =>
      appError('rate_limited', `Too many sign-in attempts from this address. Try again in ${context.after}.`, {
        headers: { 'Retry-After': String(Math.ceil(context.ttl / 1000)) },
      }),
  });
  rateLimitResetAsUnixTime(app);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = formPageError(error);
    const publicError = toPublicError(known);
    if (publicError.status >= 500 && !(known instanceof AppError)) {
      request.log.error({ err: error }, 'dashboard request failed');
    } else request.log.info({ code: publicError.code, status: publicError.status }, 'dashboard request rejected');
    if (known instanceof AppError) for (const [name, value] of Object.entries(known.headers)) reply.header(name, value);
    return noStore(reply.status(publicError.status)).view('dashboard/error', { error: publicError });
  });

  // Pages for people, not API operations: kept out of /openapi.json.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  assetRoutes(app);
  const signInLinks = new SignInLinks(database.db, clock);
  accountRoutes(app, sessions, signInLinks);
  billingRoutes(app, sessions);
  feedRoutes(app, sessions);
  forecastRoutes(app, sessions);
  deliveryRoutes(app, sessions);
  watchlistRoutes(app, sessions);
  bulkCheckRoutes(app, sessions);
  signInLinkRoutes(app, sessions, signInLinks);
};
