import type { WebSessionStore } from './session-store.ts';
import type { CookieSettings } from './viewer.ts';
/** What the web pages add to the platform's context (its services live in `app.platform`). */
export interface WebContext {
  webSessions: WebSessionStore;
  cookies: CookieSettings;
  /** Origin of PUBLIC_URL: where media URLs point. */
  publicOrigin: string;
}
declare module 'fastify' {
  interface FastifyInstance {
    web: WebContext;
  }
}
