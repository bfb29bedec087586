import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import view from '@fastify/view';
import { rateLimitResetAsUnixTime } from '@repo/server-kit';
import { Eta } from 'eta';
import type { FastifyInstance } from 'fastify';
import { installWebErrorPages, installWebNotFoundPage } from './error-pages.ts';
import { appPages } from './pages/apps.ts';
import { authPages } from './pages/auth.ts';
import { developerPages } from './pages/developer.ts';
import { developerCredentialPages } from './pages/developer-credentials.ts';
import { appGuidePage } from './pages/guide.ts';
import { homePage } from './pages/home.ts';
import { inboxPages } from './pages/inbox.ts';
import { notificationPages } from './pages/notifications.ts';
import { peoplePages } from './pages/people.ts';
import { ownPhotoPages, photoPages } from './pages/photos.ts';
import { picoStylesheet } from './pages/pico.ts';
import { profilePages } from './pages/profile.ts';
import { settingsPages } from './pages/settings.ts';
import { csrfUserInfo } from './render.ts';
import { applyPageSecurityHeaders } from './security-headers.ts';
import { WebSessionStore } from './session-store.ts';
import { type CookieSettings, loadViewer } from './viewer.ts';
import type { WebContext } from './web-context.ts';

const VIEWS_DIR = fileURLToPath(new URL('./views', import.meta.url));
const PUBLIC_DIR = fileURLToPath(new URL('./public', import.meta.url));

/**
 * The platform's web pages: sessions, form protection, templates, styles and every page.
 * Registered (encapsulated) by the platform's app; nothing here leaks into the API routes.
 */
export async function webPlugin(app: FastifyInstance): Promise<void> {
  const { config, database, clock, redis } = app.platform;
  const cookies: CookieSettings = { secure: config.PUBLIC_URL.startsWith('https://') };
  const webSessions = new WebSessionStore(database.db, clock);
  app.decorate('web', {
    webSessions,
    cookies,
    publicOrigin: new URL(config.PUBLIC_URL).origin,
  } satisfies WebContext);
  app.decorateRequest('viewer', undefined);

  if (!app.hasRequestDecorator('cookies')) await app.register(cookie);
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    await app.register(formbody, { bodyLimit: 64 * 1024 });
  }
  if (!app.hasContentTypeParser('multipart/form-data')) {
    await app.register(multipart, { limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 1, fields: 10 } });
  }
  await app.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: cookies.secure ? '__Host-sp_csrf' : 'sp_csrf',
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'strict', secure: cookies.secure },
    // Multipart forms carry the token in their action URL: their body is read only after the check.
    getToken: (request) =>
      (request.body as { _csrf?: string } | undefined)?._csrf ?? (request.query as { _csrf?: string })._csrf,
    getUserInfo: csrfUserInfo,
    csrfOpts: { hmacKey: await webSessions.secret('csrf_hmac_key') },
  });
  // Only the routes that ask for it (log-in and sign-up) are limited, per client address.
  await app.register(rateLimit, { global: false, ...(redis ? { redis, nameSpace: 'web-rate:' } : {}) });
  rateLimitResetAsUnixTime(app);
  await app.register(view, {
    engine: { eta: new Eta({ views: VIEWS_DIR, cache: config.NODE_ENV === 'production' }) },
    templates: VIEWS_DIR,
    production: config.NODE_ENV === 'production',
  });
  await app.register(fastifyStatic, {
    root: PUBLIC_DIR,
    prefix: '/assets/',
    decorateReply: false,
    maxAge: config.NODE_ENV === 'production' ? '1h' : 0,
  });

  app.addHook('onRequest', async (request, reply) => {
    applyPageSecurityHeaders(reply, { publicOrigin: app.web.publicOrigin });
    if (!request.url.startsWith('/assets/')) await loadViewer(request, reply, cookies);
  });
  installWebErrorPages(app);
  installWebNotFoundPage(app);

  await app.register(picoStylesheet);
  await app.register(homePage);
  await app.register(authPages);
  await app.register(profilePages);
  await app.register(peoplePages);
  await app.register(inboxPages);
  await app.register(notificationPages);
  await app.register(photoPages);
  await app.register(ownPhotoPages);
  await app.register(appPages);
  await app.register(developerPages);
  await app.register(developerCredentialPages);
  await app.register(settingsPages);
  await app.register(appGuidePage);
}
