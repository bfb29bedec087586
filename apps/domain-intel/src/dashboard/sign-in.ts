import { isAppError, textsEqual } from '@repo/server-kit';
import type { AccountsService } from '../accounts/accounts-service.ts';
import { normalizeEmail } from '../accounts/email.ts';
import { appError } from '../error-catalogue.ts';

/** One answer for every failure, so the form tells nobody which e-mails have accounts. */
export const signInRefused = () =>
  appError('sign_in_failed', 'That e-mail address and API key do not belong to one active account.');

const planEnded = (plan: string, endedAt: number) =>
  appError(
    'plan_ended',
    `Your ${plan} plan ended on ${new Date(endedAt).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })} ` +
      '(it was cancelled), and its API keys stopped with it. Get a one-time sign-in link by e-mail to open the dashboard and choose a plan again.',
  );

/**
 * Signs in with an account's e-mail and one of its live API keys. The key is checked by the
 * accounts service (looked up by its SHA-256, revocation and billing period enforced, no
 * quota taken); the e-mail is compared in constant time, and the
 * same work is done whether or not the key exists. A key whose paid plan ended is refused with
 * `plan_ended`, saying so, when the address is the account's (else as any other refusal).
 */
export async function verifySignIn(
  accounts: AccountsService,
  input: { email?: unknown; key?: unknown },
): Promise<{ accountId: string; email: string; keyId: string }> {
  if (typeof input.email !== 'string' || typeof input.key !== 'string' || input.key.trim() === '') {
    throw appError('invalid_request', 'Enter the e-mail address of your account and one of its API keys.');
  }
  const email = normalizeEmail(input.email);
  const caller = await accounts.authenticate(`Bearer ${input.key.trim()}`).catch((error: unknown) => {
    if (isAppError(error) && error.status === 401) return undefined;
    throw error;
  });
  // Asked on every refusal, so a refusal takes the same work whether or not the plan ended.
  const ended = caller ? undefined : await accounts.endedPlanOf(input.key.trim());
  const matches = textsEqual(caller?.email ?? ended?.email ?? '', email);
  // The key and its address prove the account is theirs: tell them why it is closed, not "no account".
  if (ended && matches) throw planEnded(ended.plan.name, ended.endedAt);
  if (!caller || !matches) throw signInRefused();
  return { accountId: caller.accountId, email: caller.email, keyId: caller.keyId };
}
