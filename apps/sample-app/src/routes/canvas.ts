import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE, setSessionCookie } from '../session-cookie.ts';

const canvasQuery = {
  type: 'object',
  properties: {
    key: { type: 'string', minLength: 1, maxLength: 512 },
    app_id: { type: 'string', maxLength: 64 },
    platform_origin: { type: 'string', maxLength: 300 },
  },
} as const;

/**
 * The canvas URL the platform frames: `/?key=ONE_TIME_KEY&app_id=APP_ID&platform_origin=ORIGIN`.
 * The key is traded for a token right away (server to server), the token goes into a fresh
 * session, and the browser is redirected so the spent key leaves the address and the history.
 * `platform_origin` is kept for the pages' /js/canvas.js, but only when it is the origin of
 * the platform this app is configured for: the app never posts to an origin a URL made up.
 */
export async function canvasRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: { key?: string; app_id?: string; platform_origin?: string } }>(
    '/',
    { schema: { querystring: canvasQuery } },
    async (request, reply) => {
      const { sessions, platform, config, platformOrigin } = app.sample;
      const { key, app_id: appId, platform_origin: givenOrigin } = request.query;
      if (key) {
        const token = await platform.exchangeKey(key);
        const previous = request.cookies[SESSION_COOKIE];
        if (previous) sessions.delete(previous);
        if (givenOrigin !== undefined && givenOrigin !== platformOrigin) {
          request.log.warn({ givenOrigin }, 'platform_origin is not the configured platform; ignored');
        }
        const session = sessions.create(token, appId, givenOrigin === platformOrigin ? givenOrigin : undefined);
        setSessionCookie(request, reply, session, config.SESSION_TTL_MINUTES * 60_000);
        return reply.redirect('/home', 303);
      }
      if (sessions.get(request.cookies[SESSION_COOKIE])) return reply.redirect('/home', 303);
      return reply.view('welcome.eta', { title: 'Open me from the platform' });
    },
  );
}
