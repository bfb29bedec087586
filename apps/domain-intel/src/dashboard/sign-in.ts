import { isAppError, textsEqual } from '@repo/server-kit';
import type { AccountsService } from '../accounts/accounts-service.ts';
import { normalizeEmail } from '../accounts/email.ts';
import { appError } from '../error-catalogue.ts';

/** One answer for every failure, so the form tells nobody which e-mails have accounts. */
export const signInRefused = () =>
  appError('sign_in_failed', 'That e-mail address and API key do not belong to one active account.');

/**
 * Signs in with an account's e-mail and one of its live API keys. The key is checked by the
 * accounts service (looked up by its SHA-256, revocation and billing period enforced, no
 * quota taken); the e-mail is compared in constant time, and the
 * same work is done whether or not the key exists.
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
  const matches = textsEqual(caller?.email ?? '', email);
  if (!caller || !matches) throw signInRefused();
  return { accountId: caller.accountId, email: caller.email, keyId: caller.keyId };
}
