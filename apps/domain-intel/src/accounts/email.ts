import { appError } from '../error-catalogue.ts';

// Deliberately simple: one @, a dotted domain, no spaces or control characters. Real
// verification is a mail round trip; this only catches typos and garbage.
const EMAIL_PATTERN = /^[^\s@\p{Cc}]{1,64}@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/u;

/** Lowercases and validates an e-mail address, or throws 400 `invalid_email`. */
export function normalizeEmail(input: unknown): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw appError('invalid_email', 'An e-mail address is required.');
  }
  const email = input.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) {
    throw appError('invalid_email', `"${input.slice(0, 80)}" is not a valid e-mail address.`);
  }
  return email;
}
