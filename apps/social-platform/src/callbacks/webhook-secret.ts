import { createHmac } from 'node:crypto';

/** What the webhook key is derived under: changing it would change every app's key. */
export const WEBHOOK_KEY_LABEL = 'social-platform webhook key v1';

/**
 * The Standard Webhooks secret of an app's callbacks, derived from its app secret:
 * key = HMAC-SHA256(key = the app secret's UTF-8 bytes, message = the UTF-8 bytes of
 * "social-platform webhook key v1"), 32 bytes; secret = "whsec_" + base64(key). A separate key
 * (not the app secret itself) so that a webhook signature can never be replayed as a token.php
 * `sig` or a launch `sign`; derived (not stored) so that rotating the app secret rotates it too.
 */
export function webhookSecretOf(appSecret: string): string {
  const key = createHmac('sha256', Buffer.from(appSecret, 'utf8')).update(WEBHOOK_KEY_LABEL, 'utf8').digest();
  return `whsec_${key.toString('base64')}`;
}
