import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../users/users-service.ts';
import { type WebSession } from './session-store.ts';
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
export declare const sessionCookieName: ({ secure }: CookieSettings) => '__Host-sp_session' | 'sp_session';
export declare function setSessionCookie(reply: FastifyReply, settings: CookieSettings, value: string): void;
export declare function clearSessionCookie(reply: FastifyReply, settings: CookieSettings): void;
/** Reads the session cookie and loads who it belongs to; a stale or unknown cookie is dropped. */
export declare function loadViewer(
  request: FastifyRequest,
  reply: FastifyReply,
  settings: CookieSettings,
): Promise<void>;
/** The logged-in viewer; anyone else is sent to the login page (see the error page handler). */
export declare function requireViewer(request: FastifyRequest): Viewer;
