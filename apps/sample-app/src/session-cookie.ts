import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionEnded } from './errors.ts';
import type { Session } from './sessions.ts';

export const SESSION_COOKIE = 'sample_app_session';

/**
 * The session cookie of an app that lives in another site's iframe.
 *
 * Over https it is `SameSite=None; Secure; Partitioned`: a cross-site iframe only gets
 * cookies that are allowed in third-party contexts, and `Partitioned` (CHIPS) keeps it
 * working where unpartitioned third-party cookies are blocked.
 *
 * Over plain http a browser rejects `SameSite=None` (it needs `Secure`), so the cookie is
 * `SameSite=Lax`. That works when the platform and the app are the same *site*, which is
 * the case for the demo: http://127.0.0.1:3100 and http://127.0.0.1:3200 differ only by
 * port, and a port does not make another site. Put both on 127.0.0.1 (or both on
 * localhost) when running without TLS.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: Session, ttlMs: number) {
  const secure = request.protocol === 'https';
  reply.setCookie(SESSION_COOKIE, session.id, {
    path: '/',
    httpOnly: true,
    secure,
    sameSite: secure ? 'none' : 'lax',
    partitioned: secure,
    maxAge: Math.floor(ttlMs / 1000),
  });
}

/** The request's live session, or a 401 page asking the user to open the app from the platform again. */
export function requireSession(request: FastifyRequest): Session {
  const session = request.server.sample.sessions.get(request.cookies[SESSION_COOKIE]);
  if (!session) throw sessionEnded();
  return session;
}
