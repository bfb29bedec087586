import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../error-catalogue.ts';
import type { User } from '../users/users-service.ts';
import { SESSION_TTL_MS, type WebSession } from './session-store.ts';

/** Who is looking at a page: their session and account. */
export interface Viewer {
  session: WebSession;
  user: User;
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer | undefined;
  }
}

export interface CookieSettings {
  /** Over https: Secure cookies, and the `__Host-` prefix that pins the cookie to this exact host. */
  secure: boolean;
}

export const sessionCookieName = ({ secure }: CookieSettings) => (secure ? '__Host-sp_session' : 'sp_session');

export function setSessionCookie(reply: FastifyReply, settings: CookieSettings, value: string): void {
  reply.setCookie(sessionCookieName(settings), value, {
    path: '/',
    httpOnly: true,
    secure: settings.secure,
    // Lax: the session rides along when someone follows a link to the platform, never on another site's POST.
    sameSite: 'lax',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(sessionCookieName(settings), {
    path: '/',
    httpOnly: true,
    secure: settings.secure,
    sameSite: 'lax',
  });
}

/** Reads the session cookie and loads who it belongs to; a stale or unknown cookie is dropped. */
export async function loadViewer(request: FastifyRequest, reply: FastifyReply, settings: CookieSettings) {
  const cookieValue = request.cookies[sessionCookieName(settings)];
  if (!cookieValue) return;
  const { webSessions } = request.server.web;
  const { users } = request.server.platform;
  const session = await webSessions.find(cookieValue);
  const user = session ? await users.findById(session.userId) : undefined;
  if (!session || !user) {
    clearSessionCookie(reply, settings);
    return;
  }
  request.viewer = { session, user };
}

/** The logged-in viewer; anyone else is sent to the login page (see the error page handler). */
export function requireViewer(request: FastifyRequest): Viewer {
  if (!request.viewer) throw appError('login_required', 'Please log in to see this page.');
  return request.viewer;
}
