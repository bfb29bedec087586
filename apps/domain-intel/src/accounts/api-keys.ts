import { createHash, randomBytes } from 'node:crypto';
import bs58 from 'bs58';

export const API_KEY_PREFIX = 'di_live_';
/** Characters of a key shown in listings: the prefix plus four of the random part. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;
/** 32 random bytes in base58 are 43 or 44 characters (fewer only with leading zero bytes). */
const API_KEY_PATTERN = /^di_live_[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export interface NewApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  hash: string;
  prefix: string;
}

export function generateApiKey(): NewApiKey {
  const key = API_KEY_PREFIX + bs58.encode(randomBytes(32));
  return { key, hash: hashApiKey(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

/** Keys are stored and looked up only by their SHA-256. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isWellFormedApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}
