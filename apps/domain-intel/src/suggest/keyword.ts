import { parseDomain } from '../domain/normalize.ts';
import { appError } from '../error-catalogue.ts';

/** What a caller's keyword means once normalised. */
export interface Keyword {
  /** Lowercase Unicode words (NFKC), e.g. `['café', 'shop']`. */
  words: string[];
  /** The words joined, the label of the exact candidate (`caféshop`). */
  joined: string;
  /** A TLD the keyword itself named (`coolshop.com` → `com`), tried first. */
  tldHint: string | undefined;
}

export const MAX_KEYWORD_CHARACTERS = 100;
/** Letters, combining marks and digits of any script make words; everything else separates them. */
const WORD_SEPARATOR = /[^\p{L}\p{M}\p{N}]+/u;

/**
 * Turns a free-form keyword ("Coffee Shop", "café-bar", "coolshop.com") into words usable in
 * domain labels. Throws a 400 AppError (`keyword_required`, `keyword_too_long`,
 * `keyword_unusable`) when there is nothing a domain name could be made of.
 */
export function parseKeyword(raw: unknown): Keyword {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw appError('keyword_required', 'Give a keyword, e.g. ?keyword=coffee%20shop.');
  }
  if ([...raw].length > MAX_KEYWORD_CHARACTERS) {
    throw appError('keyword_too_long', `The keyword is longer than ${MAX_KEYWORD_CHARACTERS} characters.`);
  }
  let text = raw.normalize('NFKC').trim().toLowerCase();
  let tldHint: string | undefined;
  const asDomain = /^[^\s]+\.[^\s.]+$/u.test(text) ? parseDomain(text) : undefined;
  if (asDomain?.ok) {
    tldHint = asDomain.domain.tld;
    text = asDomain.domain.unicodeName.slice(0, -(tldHint.length + 1));
  }
  const words = text.split(WORD_SEPARATOR).filter(Boolean);
  if (words.length === 0) {
    throw appError('keyword_unusable', `"${raw}" has no letters or digits a domain name could be made of.`);
  }
  const joined = words.join('');
  const probe = parseDomain(`${joined}.com`);
  if (!probe.ok) {
    if (probe.error.code === 'label_too_long' || probe.error.code === 'domain_too_long') {
      throw appError('keyword_too_long', 'The keyword makes a domain label longer than 63 characters.');
    }
    throw appError('keyword_unusable', `"${raw}" cannot be written as a domain name: ${probe.error.message}`);
  }
  return { words, joined, tldHint };
}
