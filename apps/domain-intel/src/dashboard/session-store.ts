import { type Clock, hashSecret, isWellFormedSecret, newSecret } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

export interface SessionAccount {
  accountId: string;
  email: string;
}

/**
 * Dashboard sign-ins kept in the database, so they hold across restarts and instances and a
 * sign-out ends them for good. The browser holds a random token; only its hash is stored.
 */
export class DashboardSessions {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly lifetimeMs: number,
  ) {}

  /** Starts a session and returns the token for the cookie. */
  async create(accountId: string): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret();
    const now = this.clock.now();
    const expiresAt = now + this.lifetimeMs;
    await this.db
      .insertInto('dashboard_sessions')
      .values({ id_hash: hashSecret(token), account_id: accountId, created_at: now, expires_at: expiresAt })
      .execute();
    // Sign-ins are rare: clearing expired rows here keeps the table small without a job.
    await this.db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).execute();
    return { token, expiresAt };
  }

  /** The account of a live session, or undefined for an unknown, malformed or expired token. */
  async accountOf(token: string | undefined): Promise<SessionAccount | undefined> {
    if (!isWellFormedSecret(token)) return undefined;
    const row = await this.db
      .selectFrom('dashboard_sessions')
      .innerJoin('accounts', 'accounts.id', 'dashboard_sessions.account_id')
      .select(['accounts.id as accountId', 'accounts.email', 'dashboard_sessions.expires_at'])
      .where('dashboard_sessions.id_hash', '=', hashSecret(token))
      .executeTakeFirst();
    if (!row || row.expires_at <= this.clock.now()) return undefined;
    return { accountId: row.accountId, email: row.email };
  }

  async end(token: string | undefined): Promise<void> {
    if (!token) return;
    await this.db.deleteFrom('dashboard_sessions').where('id_hash', '=', hashSecret(token)).execute();
  }
}
