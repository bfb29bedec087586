import { randomBytes } from 'node:crypto';
import { hashSecret } from '@repo/server-kit';
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

/** A new key; only its SHA-256 (`hashSecret`) is stored and looked up. */
export function generateApiKey(): NewApiKey {
  const key = API_KEY_PREFIX + bs58.encode(randomBytes(32));
  return { key, hash: hashSecret(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export function isWellFormedApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}
