import type { Clock } from '@repo/server-kit';
import type { AccountSummary, AccountsService, IssuedKey } from '../accounts/accounts-service.ts';
import { normalizeEmail } from '../accounts/email.ts';
import { appError } from '../error-catalogue.ts';
import type { CountedLimit, LimitState } from '../limits/counted-limit.ts';
import type { Mailer, MailMessage } from '../mail/index.ts';
import { CONFIRMATION_HOURS, type PendingSignups } from './pending-signups.ts';
import { alreadyRegisteredMail, confirmationMail } from './signup-mails.ts';

export interface SignupLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface SignupServiceDeps {
  accounts: AccountsService;
  pending: PendingSignups;
  /** Sign-ups that went through (an account made, or a confirmation mail sent) per client address. */
  signupsPerClient: CountedLimit;
  /** Every sign-up attempt per client address, failed ones included: a generous cap against floods. */
  attemptsPerClient: CountedLimit;
  /** Sign-up mails per recipient address, so nobody can fill someone's mailbox. */
  mailsPerRecipient: CountedLimit;
  /** With a mailer, sign-ups confirm the address; without one, the key is shown at once. */
  mailer: Mailer | undefined;
  /** Absolute URL of the service (PUBLIC_URL), for the links in mails. */
  publicUrl: string;
  log: SignupLog;
  clock: Clock;
}

export type SignupStarted =
  | { kind: 'created'; account: AccountSummary; key: IssuedKey; limit: LimitState }
  /** A mail went to the address: a confirmation link, or (same answer) "you already have an account". */
  | { kind: 'confirmation_sent'; email: string; expiresAt: number; limit: LimitState };

/**
 * Self-service sign-up. With account mail, it confirms the address first: a sign-up sends a
 * link and nothing else happens; the link's page creates the account and shows its key once.
 * So a sign-up with someone else's address reserves nothing, and the answer is the same
 * whether the address has an account or not. What is limited is what costs the service: sign-ups
 * that went through, per client address, and mails per recipient; failed attempts do not count.
 */
export class SignupService {
  constructor(private readonly deps: SignupServiceDeps) {}

  /** Whether sign-ups confirm the address (account mail is configured). */
  get confirms(): boolean {
    return this.deps.mailer !== undefined;
  }

  /** Mail goes to DATA_DIR/outbox instead of a mail server (the embedded mode, the demo). */
  get mailsToOutbox(): boolean {
    return this.deps.mailer?.transport === 'outbox';
  }

  async start(input: { email: unknown; client: string }): Promise<SignupStarted> {
    const { accounts, attemptsPerClient, signupsPerClient } = this.deps;
    await attemptsPerClient.take(input.client);
    const email = normalizeEmail(input.email);
    if (!this.confirms) {
      // No mail: the key is shown at once, so an existing address must be refused here.
      if (await accounts.findSummary(email)) {
        throw appError('email_taken', `An account with ${email} already exists; use the key issued for it.`);
      }
      const limit = await signupsPerClient.take(input.client);
      try {
        const { account, key } = await accounts.signUp({ email, plan: 'free' });
        return { kind: 'created', account, key, limit };
      } catch (error) {
        await signupsPerClient.giveBack(input.client);
        throw error;
      }
    }
    const limit = await signupsPerClient.take(input.client);
    try {
      const expiresAt = await this.#mailConfirmation(email);
      return { kind: 'confirmation_sent', email, expiresAt, limit };
    } catch (error) {
      await signupsPerClient.giveBack(input.client);
      throw error;
    }
  }

  /** The address a confirmation link is for, while the link works (for its page). */
  async pendingEmail(token: string | undefined): Promise<string> {
    const email = await this.deps.pending.emailOf(token);
    if (!email) throw linkInvalid();
    return email;
  }

  /** Uses a confirmation link: creates the Free account and its key (shown once by the caller). */
  async confirm(token: string | undefined): Promise<{ account: AccountSummary; key: IssuedKey }> {
    const { pending, accounts } = this.deps;
    const email = await pending.consume(token);
    if (!email) throw linkInvalid();
    try {
      return await accounts.signUp({ email, plan: 'free' });
    } catch (error) {
      if ((error as { code?: string }).code === 'email_taken') {
        throw appError(
          'email_taken',
          `${email} has an account already (another confirmation link of it was used): sign in to the dashboard.`,
        );
      }
      throw error;
    } finally {
      await pending.forget(email);
    }
  }

  /** Sends the mail a sign-up for `email` gets; returns when its link expires. */
  async #mailConfirmation(email: string): Promise<number> {
    const { accounts, pending, mailsPerRecipient, publicUrl } = this.deps;
    await mailsPerRecipient.take(email);
    // The answer is the same whether the address has an account or not, expiry included.
    let expiresAt = this.deps.clock.now() + CONFIRMATION_HOURS * 3_600_000;
    let message: MailMessage;
    if (await accounts.findSummary(email)) {
      message = alreadyRegisteredMail(email, `${publicUrl}/dashboard`);
    } else {
      const link = await pending.add(email);
      expiresAt = link.expiresAt;
      message = confirmationMail(email, `${publicUrl}/signup/confirm?token=${link.token}`, CONFIRMATION_HOURS);
    }
    try {
      await (this.deps.mailer as Mailer).send(message);
    } catch (error) {
      await mailsPerRecipient.giveBack(email);
      this.deps.log.warn({ err: error }, 'sign-up mail not sent');
      throw appError(
        'mail_unavailable',
        'The confirmation mail could not be sent just now. Nothing was created; try again in a few minutes.',
        { headers: { 'Retry-After': '60' } },
      );
    }
    return expiresAt;
  }
}

const linkInvalid = () =>
  appError(
    'signup_link_invalid',
    'This confirmation link has expired or was already used. Sign up again to get a new one.',
  );
