/**
 * What the app remembers between the requests of one opening: the platform token (it
 * never leaves the server; the browser only holds the random session id in an HttpOnly
 * cookie) and a per-session form token that proves a POST came from the app's own page.
 */
export interface Session {
  id: string;
  token: string;
  appId: string | undefined;
  formToken: string;
  expiresAt: number;
}
/**
 * Sessions in memory: the sample app is one process and a session only lives as long as
 * one visit. An app run on several instances keeps them in a shared store instead.
 */
export declare class SessionStore {
  #private;
  private readonly ttlMs;
  private readonly now;
  constructor(ttlMs: number, now?: () => number);
  create(token: string, appId: string | undefined): Session;
  get(id: string | undefined): Session | undefined;
  delete(id: string): void;
  get size(): number;
}
/** Compares a submitted form token with the session's in constant time. */
export declare function formTokenMatches(session: Session, submitted: unknown): boolean;
