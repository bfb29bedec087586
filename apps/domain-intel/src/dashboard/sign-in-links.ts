import { type Clock, hashSecret, isWellFormedSecret, newSecret } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** How long a sign-in link works. */
export const SIGN_IN_LINK_MINUTES = 15;

/** One-time sign-in links: a random token in the link, its SHA-256 in the table, used at most once. */
export class SignInLinks {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string): Promise<string> {
    const token = newSecret();
    const now = this.clock.now();
    await this.db.deleteFrom('dashboard_sign_in_links').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('dashboard_sign_in_links')
      .values({
        id_hash: hashSecret(token),
        account_id: accountId,
        created_at: now,
        expires_at: now + SIGN_IN_LINK_MINUTES * 60_000,
      })
      .execute();
    return token;
  }

  /** Whether the link still works (to show its confirmation page); does not use it up. */
  async isValid(token: string | undefined): Promise<boolean> {
    if (!isWellFormedSecret(token)) return false;
    const row = await this.db
      .selectFrom('dashboard_sign_in_links')
      .select('expires_at')
      .where('id_hash', '=', hashSecret(token))
      .executeTakeFirst();
    return row !== undefined && row.expires_at > this.clock.now();
  }

  /** Makes every link of the account not used yet stop working ("sign out everywhere"). */
  async revokeAll(accountId: string): Promise<void> {
    await this.db.deleteFrom('dashboard_sign_in_links').where('account_id', '=', accountId).execute();
  }

  /** Uses the link up and returns its account; one DELETE … RETURNING, so two clicks cannot both win. */
  async consume(token: string | undefined): Promise<string | undefined> {
    if (!isWellFormedSecret(token)) return undefined;
    const row = await this.db
      .deleteFrom('dashboard_sign_in_links')
      .where('id_hash', '=', hashSecret(token))
      .where('expires_at', '>', this.clock.now())
      .returning('account_id')
      .executeTakeFirst();
    return row?.account_id;
  }
}
