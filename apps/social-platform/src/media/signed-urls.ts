import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '@repo/server-kit';

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * Signed, expiring URLs for media that is not public (friends-only and private photos): the
 * URL carries `expires` (Unix seconds) and `signature`, an HMAC-SHA256 of the storage key and
 * the expiry under a server secret. Whoever holds the URL may fetch the file until it expires;
 * changing the key, the expiry or the signature makes it worthless.
 *
 * Expiries are rounded up to the next multiple of the lifetime (plus one lifetime), so a page
 * shown twice within one lifetime uses the same URLs and the browser's cache still works:
 * a URL lives between one and two lifetimes.
 */
export class MediaUrlSigner {
  readonly #key: Buffer;

  constructor(
    key: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {
    this.#key = Buffer.from(key, 'utf8');
  }

  /** The query string that makes a URL of `storageKey` valid for one to two lifetimes. */
  sign(storageKey: string): string {
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    const expires = (Math.floor(nowSeconds / this.ttlSeconds) + 2) * this.ttlSeconds;
    return `expires=${expires}&signature=${this.#signature(storageKey, expires)}`;
  }

  /** Whether `expires` and `signature` (query values, as sent) are a live signature of `storageKey`. */
  check(storageKey: string, expires: unknown, signature: unknown): SignatureCheck {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return 'invalid';
    const expected = Buffer.from(this.#signature(storageKey, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return Number(expires) * 1000 <= this.clock.now() ? 'expired' : 'valid';
  }

  /** Seconds until a URL signed with `expires` stops working (for its Cache-Control). */
  secondsLeft(expires: string): number {
    return Math.max(0, Number(expires) - Math.floor(this.clock.now() / 1000));
  }

  #signature(storageKey: string, expires: number): string {
    return createHmac('sha256', this.#key).update(`${storageKey}\n${expires}`).digest('base64url');
  }
}
