import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * What the app remembers between the requests of one opening: the platform token (it
 * never leaves the server; the browser only holds the random session id in an HttpOnly
 * cookie) and a per-session form token that proves a POST came from the app's own page.
 */
export interface Session {
  id: string;
  token: string;
  appId: string | undefined;
  /** The platform's user who opened the app (from the signed launch), to end their sessions when they remove it. */
  userId: string | undefined;
  /** The platform's origin as it passed it (`platform_origin`): where /js/canvas.js posts its messages. */
  platformOrigin: string | undefined;
  formToken: string;
  expiresAt: number;
}

/**
 * Sessions in memory: the sample app is one process and a session only lives as long as
 * one visit. An app run on several instances keeps them in a shared store instead.
 */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  create(token: string, appId: string | undefined, platformOrigin?: string, userId?: string): Session {
    this.#sweep();
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      token,
      appId,
      userId,
      platformOrigin,
      formToken: randomBytes(32).toString('base64url'),
      expiresAt: this.now() + this.ttlMs,
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  get(id: string | undefined): Session | undefined {
    if (!id) return undefined;
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= this.now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return session;
  }

  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** Ends every session of a platform user (they removed the app); returns how many there were. */
  deleteForUser(userId: string): number {
    let ended = 0;
    for (const [id, session] of this.#sessions) {
      if (session.userId === userId) {
        this.#sessions.delete(id);
        ended++;
      }
    }
    return ended;
  }

  get size(): number {
    return this.#sessions.size;
  }

  #sweep(): void {
    const now = this.now();
    for (const [id, session] of this.#sessions) {
      if (session.expiresAt <= now) this.#sessions.delete(id);
    }
  }
}

/** Compares a submitted form token with the session's in constant time. */
export function formTokenMatches(session: Session, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const expected = Buffer.from(session.formToken);
  const actual = Buffer.from(submitted);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
