import { type Clock, hashSecret, newSecret } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** A login session row: only the SHA-256 of the cookie value is stored. */
export interface WebSessionTable {
  id_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

/** A server secret of the web pages, created once and shared by every instance. */
export interface WebSecretTable {
  name: string;
  value: string;
}

type WebTables = { web_sessions: WebSessionTable; web_secrets: WebSecretTable };
type WebDB = DB & WebTables;

export interface WebSession {
  /** The hash of the cookie value; safe to use as an identifier (the CSRF token is bound to it). */
  idHash: string;
  userId: number;
  expiresAt: number;
}

/** How long a login lasts. */
export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;

/**
 * Login sessions in the platform's database, so any number of instances share them and
 * logging out (or deleting a user) ends a session everywhere at once.
 */
export class WebSessionStore {
  readonly #db: Kysely<WebDB>;

  constructor(
    db: Kysely<DB>,
    private readonly clock: Clock,
  ) {
    this.#db = db.withTables<WebTables>();
  }

  /** Starts a session for `userId`; returns the secret for the cookie (never stored). */
  async create(userId: number): Promise<{ cookieValue: string; session: WebSession }> {
    const now = this.clock.now();
    // Login is a good moment to forget sessions that ended, without a separate job.
    await this.#db.deleteFrom('web_sessions').where('expires_at', '<=', now).execute();
    const cookieValue = newSecret('sps_');
    const session = { idHash: hashSecret(cookieValue), userId, expiresAt: now + SESSION_TTL_MS };
    await this.#db
      .insertInto('web_sessions')
      .values({ id_hash: session.idHash, user_id: userId, created_at: now, expires_at: session.expiresAt })
      .execute();
    return { cookieValue, session };
  }

  /** The live session a cookie value names, or undefined. */
  async find(cookieValue: string | undefined): Promise<WebSession | undefined> {
    if (!cookieValue || cookieValue.length > 200) return undefined;
    const row = await this.#db
      .selectFrom('web_sessions')
      .select(['id_hash', 'user_id', 'expires_at'])
      .where('id_hash', '=', hashSecret(cookieValue))
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return row ? { idHash: row.id_hash, userId: row.user_id, expiresAt: row.expires_at } : undefined;
  }

  async destroy(idHash: string): Promise<void> {
    await this.#db.deleteFrom('web_sessions').where('id_hash', '=', idHash).execute();
  }

  /**
   * The secret called `name`, made on first use. Every instance reads the same row, so a
   * form rendered by one instance is accepted by another.
   */
  async secret(name: string): Promise<string> {
    await this.#db
      .insertInto('web_secrets')
      .values({ name, value: newSecret() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.#db
      .selectFrom('web_secrets')
      .select('value')
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return row.value;
  }
}
