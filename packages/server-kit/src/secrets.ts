import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The one way both services make and keep secrets (API keys' hashes, session and sign-in tokens,
 * one-time app keys, CSRF and cookie secrets): 256 random bits, stored only as SHA-256, compared
 * in constant time.
 */

/** A new random secret: `prefix` + 32 random bytes (256 bits) in base64url (43 characters). */
export function newSecret(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Whether `token` has the shape `newSecret()` gives (no prefix): 43 base64url characters. */
export function isWellFormedSecret(token: string | undefined): token is string {
  return token !== undefined && /^[\w-]{43}$/.test(token);
}

/**
 * SHA-256 of a secret, hex: what is stored and looked up instead of the secret. One-shot
 * `crypto.hash` (no Hash object): every keyed call and api.php call hashes its credential.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Constant-time equality of two hex digests of the same length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Constant-time equality of two texts of any length (their SHA-256 digests are compared). */
export function textsEqual(a: string, b: string): boolean {
  return digestsEqual(hashSecret(a), hashSecret(b));
}
