import { type Clock, hashSecret, isWellFormedSecret, newSecret } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

export interface SessionAccount {
  accountId: string;
  email: string;
  /** The API key the session was opened with; null when it was opened by a sign-in link. */
  keyId: string | null;
}

/**
 * Dashboard sign-ins kept in the database, so they hold across restarts and instances and a
 * sign-out ends them for good. The browser holds a random token; only its hash is stored.
 *
 * A session opened with an API key lives only as long as that key: rotating or revoking the
 * key (from the dashboard, the /account API or the CLI, on any instance) ends it, because every
 * lookup reads the key's state. Otherwise whoever held a leaked key could keep minting keys
 * through the dashboard for hours after the owner replaced it.
 */
export class DashboardSessions {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly lifetimeMs: number,
  ) {}

  /** Starts a session (opened with `keyId`, or by a sign-in link when null) and returns the token for the cookie. */
  async create(accountId: string, keyId: string | null): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret();
    const now = this.clock.now();
    const expiresAt = now + this.lifetimeMs;
    await this.db
      .insertInto('dashboard_sessions')
      .values({
        id_hash: hashSecret(token),
        account_id: accountId,
        key_id: keyId,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    // Sign-ins are rare: clearing expired rows here keeps the table small without a job.
    await this.db.deleteFrom('dashboard_sessions').where('expires_at', '<=', now).execute();
    return { token, expiresAt };
  }

  /**
   * The account of a live session, or undefined for an unknown, malformed or expired token, or
   * a session whose key has been revoked or rotated since (that session is deleted).
   */
  async accountOf(token: string | undefined): Promise<SessionAccount | undefined> {
    if (!isWellFormedSecret(token)) return undefined;
    const idHash = hashSecret(token);
    const row = await this.db
      .selectFrom('dashboard_sessions')
      .innerJoin('accounts', 'accounts.id', 'dashboard_sessions.account_id')
      .leftJoin('api_keys', 'api_keys.id', 'dashboard_sessions.key_id')
      .select([
        'accounts.id as accountId',
        'accounts.email',
        'dashboard_sessions.expires_at',
        'dashboard_sessions.key_id as keyId',
        'api_keys.revoked_at as keyRevokedAt',
        'api_keys.id as liveKeyId',
      ])
      .where('dashboard_sessions.id_hash', '=', idHash)
      .executeTakeFirst();
    if (!row || row.expires_at <= this.clock.now()) return undefined;
    if (row.keyId !== null && (row.liveKeyId === null || row.keyRevokedAt !== null)) {
      await this.db.deleteFrom('dashboard_sessions').where('id_hash', '=', idHash).execute();
      return undefined;
    }
    return { accountId: row.accountId, email: row.email, keyId: row.keyId };
  }

  /**
   * Moves the session to the key that replaced its own (the person in it rotated the key they
   * signed in with, and was just shown the new one); other sessions of the old key still end.
   */
  async moveToKey(token: string | undefined, fromKeyId: string, toKeyId: string): Promise<void> {
    if (!isWellFormedSecret(token)) return;
    await this.db
      .updateTable('dashboard_sessions')
      .set({ key_id: toKeyId })
      .where('id_hash', '=', hashSecret(token))
      .where('key_id', '=', fromKeyId)
      .execute();
  }

  async end(token: string | undefined): Promise<void> {
    if (!token) return;
    await this.db.deleteFrom('dashboard_sessions').where('id_hash', '=', hashSecret(token)).execute();
  }

  /** "Sign out everywhere": ends every session of the account, this one included; returns how many. */
  async endAll(accountId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('dashboard_sessions')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
