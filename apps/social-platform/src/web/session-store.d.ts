import { type Clock } from '@repo/server-kit';
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
export interface WebSession {
  /** The hash of the cookie value; safe to use as an identifier (the CSRF token is bound to it). */
  idHash: string;
  userId: number;
  expiresAt: number;
}
/** How long a login lasts. */
export declare const SESSION_TTL_MS: number;
/**
 * Login sessions in the platform's database, so any number of instances share them and
 * logging out (or deleting a user) ends a session everywhere at once.
 */
export declare class WebSessionStore {
  #private;
  private readonly clock;
  constructor(db: Kysely<DB>, clock: Clock);
  /** Starts a session for `userId`; returns the secret for the cookie (never stored). */
  create(userId: number): Promise<{
    cookieValue: string;
    session: WebSession;
  }>;
  /** The live session a cookie value names, or undefined. */
  find(cookieValue: string | undefined): Promise<WebSession | undefined>;
  destroy(idHash: string): Promise<void>;
  /**
   * The secret called `name`, made on first use. Every instance reads the same row, so a
   * form rendered by one instance is accepted by another.
   */
  secret(name: string): Promise<string>;
}
