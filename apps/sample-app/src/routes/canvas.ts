import type { FastifyInstance } from 'fastify';
import { SampleAppError } from '../errors.ts';
import { SESSION_COOKIE, setSessionCookie } from '../session-cookie.ts';
import { signKey, verifyLaunch } from '../signatures.ts';

const canvasQuery = {
  type: 'object',
  properties: {
    key: { type: 'string', minLength: 1, maxLength: 512 },
    app_id: { type: 'string', maxLength: 64 },
    platform_origin: { type: 'string', maxLength: 300 },
    ts: { type: 'string', maxLength: 20 },
    user_id: { type: 'string', maxLength: 20 },
    sign: { type: 'string', maxLength: 128 },
  },
} as const;

type CanvasQuery = {
  key?: string;
  app_id?: string;
  platform_origin?: string;
  ts?: string;
  user_id?: string;
  sign?: string;
};

/**
 * The canvas URL the platform frames: `/?key=…&app_id=…&platform_origin=…&ts=…&user_id=…&sign=…`.
 * With APP_SECRET set, the launch must be signed by the platform and fresh (else 403
 * `launch_refused`, before anything is asked of the platform), and the key is traded with `sig`.
 * The key is traded for a token right away (server to server), the token goes into a fresh
 * session, and the browser is redirected so the spent key leaves the address and the history.
 * `platform_origin` is kept for the pages' /js/canvas.js, but only when it is the origin of
 * the platform this app is configured for: the app never posts to an origin a URL made up.
 */
export async function canvasRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app.sample;
  if (!config.APP_SECRET) {
    app.log.warn('APP_SECRET is not set: launches are not verified and keys are traded unsigned');
  }
  app.get<{ Querystring: CanvasQuery }>('/', { schema: { querystring: canvasQuery } }, async (request, reply) => {
    const { sessions, platform, platformOrigin, now } = app.sample;
    const { key, app_id: appId, platform_origin: givenOrigin } = request.query;
    if (key) {
      let userId: string | undefined;
      let sig: string | undefined;
      if (config.APP_SECRET) {
        const verified = verifyLaunch(request.query, config.APP_SECRET, now());
        if ('refused' in verified) throw new SampleAppError(403, 'launch_refused', verified.refused);
        userId = verified.launch.userId;
        sig = signKey(config.APP_SECRET, key);
      }
      const token = await platform.exchangeKey(key, sig);
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) sessions.delete(previous);
      if (givenOrigin !== undefined && givenOrigin !== platformOrigin) {
        request.log.warn({ givenOrigin }, 'platform_origin is not the configured platform; ignored');
      }
      const session = sessions.create(token, appId, givenOrigin === platformOrigin ? givenOrigin : undefined, userId);
      setSessionCookie(request, reply, session, config.SESSION_TTL_MINUTES * 60_000);
      return reply.redirect('/home', 303);
    }
    if (sessions.get(request.cookies[SESSION_COOKIE])) return reply.redirect('/home', 303);
    return reply.view('welcome.eta', { title: 'Open me from the platform' });
  });
}
