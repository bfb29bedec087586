import { type Clock, hashSecret, isWellFormedSecret, newSecret } from '@repo/server-kit';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** How long a confirmation link works. */
export const CONFIRMATION_HOURS = 24;

/**
 * The `pending_signups` table: confirmation links of sign-ups not confirmed yet. A link is a
 * random token in the mail and its SHA-256 here. Each sign-up adds a link (the earlier ones keep
 * working), so whoever signs up with an address first reserves nothing: the links go to the
 * address's mailbox, and only its owner can use one.
 */
export class PendingSignups {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  /** A new confirmation link for the address; returns its token and when it expires. */
  async add(email: string): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret();
    const now = this.clock.now();
    const expiresAt = now + CONFIRMATION_HOURS * 3_600_000;
    // Sign-ups are rare: clearing expired links here keeps the table small without a job.
    await this.db.deleteFrom('pending_signups').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('pending_signups')
      .values({ token_hash: hashSecret(token), email, created_at: now, expires_at: expiresAt })
      .execute();
    return { token, expiresAt };
  }

  /** The address a link confirms, while it works; does not use it up. */
  async emailOf(token: string | undefined): Promise<string | undefined> {
    if (!isWellFormedSecret(token)) return undefined;
    const row = await this.db
      .selectFrom('pending_signups')
      .select('email')
      .where('token_hash', '=', hashSecret(token))
      .where('expires_at', '>', this.clock.now())
      .executeTakeFirst();
    return row?.email;
  }

  /** Uses a link up: one DELETE … RETURNING, so two clicks cannot both win. Returns its address. */
  async consume(token: string | undefined): Promise<string | undefined> {
    if (!isWellFormedSecret(token)) return undefined;
    const row = await this.db
      .deleteFrom('pending_signups')
      .where('token_hash', '=', hashSecret(token))
      .where('expires_at', '>', this.clock.now())
      .returning('email')
      .executeTakeFirst();
    return row?.email;
  }

  /** Every other link of the address stops working (it has an account now). */
  async forget(email: string): Promise<void> {
    await this.db.deleteFrom('pending_signups').where('email', '=', email).execute();
  }
}
