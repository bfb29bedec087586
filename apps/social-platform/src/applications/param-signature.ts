import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one HMAC an app secret makes: lowercase hex HMAC-SHA256 whose key is the app secret and whose
 * message is `text`, both as UTF-8 bytes (no hex or base64 decoding). token.php's `sig` is it over
 * the key; launch and deletion-report parameters are it over `signedText`.
 */
export function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(text, 'utf8')).digest('hex');
}

/**
 * The text parameters are signed as: `name=value` pairs sorted by name (byte order of the UTF-8
 * names), joined by `&`, each value as it reads once the query is decoded (not encoded again).
 * The platform signs only values that cannot hold `&` or `=`, so the text is unambiguous.
 */
export function signedText(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')))
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** Whether `given` is the HMAC of `text`, compared in constant time; anything but 64 hex digits is not. */
export function signatureMatches(secret: string, text: string, given: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(hmacHex(secret, text), 'hex'), Buffer.from(given, 'hex'));
}
