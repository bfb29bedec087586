import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { idnHostname } from 'idn-hostname';
import { LRUCache } from 'lru-cache';
import { parse } from 'tldts';
import { appError } from '../error-catalogue.ts';

/** A registrable domain name in the one form every part of the service uses. */
export interface NormalizedDomain {
  /** Lowercase ASCII (punycode) name without trailing dot, e.g. `xn--mnchen-3ya.de`. */
  name: string;
  /** The name in Unicode, e.g. `münchen.de` (equal to `name` for plain ASCII names). */
  unicodeName: string;
  /** The label left of the public suffix, e.g. `example` in `example.co.uk`. */
  label: string;
  /** The ICANN public suffix, e.g. `com` or `co.uk`. */
  tld: string;
}

export type DomainErrorCode =
  | 'invalid_domain'
  | 'domain_too_long'
  | 'label_too_long'
  | 'ip_address_not_allowed'
  | 'unsupported_tld'
  | 'bare_tld'
  | 'subdomain_not_allowed';

export interface DomainError {
  code: DomainErrorCode;
  message: string;
}

export type DomainParseResult =
  | { ok: true; domain: NormalizedDomain }
  | { ok: false; input: string; error: DomainError };

const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
// Before IDNA mapping: anything ASCII that is not a letter, digit, hyphen or dot is refused
// outright, because `domainToASCII` would otherwise read `%41` as `a` or cut at `/`.
const FORBIDDEN_ASCII = /[^a-z0-9.\-\u0080-\u{10FFFF}]/u;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

const failure = (input: string, code: DomainErrorCode, message: string): DomainParseResult => ({
  ok: false,
  input,
  error: { code, message },
});

/**
 * Parses what a caller typed into a registrable domain: trims, lowercases, drops one
 * trailing dot, converts IDN to punycode, checks lengths and LDH rules, and splits on the
 * public suffix list (so `example.co.uk` has the TLD `co.uk`). Never throws.
 */
export function parseDomain(raw: unknown): DomainParseResult {
  if (typeof raw !== 'string') return failure(String(raw), 'invalid_domain', 'The domain name must be a string.');
  if (raw.length > MAX_INPUT_LENGTH) {
    return failure(
      raw.slice(0, 64),
      'domain_too_long',
      `The domain name is longer than ${MAX_NAME_LENGTH} characters.`,
    );
  }
  let result = recentResults.get(raw);
  if (!result) {
    result = parseUncached(raw);
    // Shared between callers from now on, so nobody may change it.
    Object.freeze(result.ok ? result.domain : result.error);
    Object.freeze(result);
    recentResults.set(raw, result);
  }
  return result;
}

// Parsing (IDNA mapping, public-suffix lookup) is pure and a hot path: a name is parsed by
// the route, then by the availability service, and popular names recur across calls.
const recentResults = new LRUCache<string, DomainParseResult>({ max: 10_000 });
// Longer inputs cannot become a valid name (even IDN input shrinks to at most 253 + dots/spaces).
const MAX_INPUT_LENGTH = 1_024;

function parseUncached(raw: string): DomainParseResult {
  const input = raw.trim();
  let candidate = input.toLowerCase();
  if (candidate.endsWith('.')) candidate = candidate.slice(0, -1);
  if (candidate === '') return failure(input, 'invalid_domain', 'The domain name is empty.');
  if (isIP(candidate.replace(/^\[(.*)\]$/, '$1')) !== 0) {
    return failure(input, 'ip_address_not_allowed', `"${input}" is an IP address, not a domain name.`);
  }
  if (FORBIDDEN_ASCII.test(candidate)) {
    return failure(input, 'invalid_domain', `"${input}" contains characters a domain name cannot have.`);
  }
  const ascii = domainToASCII(candidate);
  if (ascii === '') return failure(input, 'invalid_domain', `"${input}" is not a valid internationalised domain name.`);
  if (isIP(ascii) !== 0) {
    return failure(input, 'ip_address_not_allowed', `"${input}" is an IP address, not a domain name.`);
  }
  if (ascii.length > MAX_NAME_LENGTH) {
    return failure(input, 'domain_too_long', `The domain name is longer than ${MAX_NAME_LENGTH} characters.`);
  }
  const labels = ascii.split('.');
  for (const label of labels) {
    if (label.length > MAX_LABEL_LENGTH) {
      return failure(input, 'label_too_long', `The label "${label}" is longer than ${MAX_LABEL_LENGTH} characters.`);
    }
    if (!LDH_LABEL.test(label)) {
      return failure(
        input,
        'invalid_domain',
        label === ''
          ? `"${input}" has an empty label.`
          : `The label "${label}" must be letters, digits and inner hyphens only.`,
      );
    }
    if (label.slice(2, 4) === '--' && !label.startsWith('xn--')) {
      return failure(
        input,
        'invalid_domain',
        `The label "${label}" has "--" in positions 3-4, which only IDN labels may have.`,
      );
    }
  }
  // Node's IDNA mapping (UTS #46) lets through what IDNA2008 forbids: emoji and symbols
  // (😀.com becomes xn--e28h.com), and it does not check bidi or joiner rules. No registry can
  // take such a name, so it is invalid before anything is asked. The check also reads
  // A-labels typed directly (xn--e28h.com is the same emoji).
  const idnaError = idna2008Error(ascii);
  if (idnaError) {
    return failure(input, 'invalid_domain', `"${input}" is not a valid internationalised domain name: ${idnaError}`);
  }
  const parsed = parse(ascii, { allowPrivateDomains: false });
  if (!parsed.publicSuffix || !parsed.isIcann) {
    return failure(input, 'unsupported_tld', `"${labels.at(-1)}" is not a top-level domain we know.`);
  }
  if (!parsed.domain || !parsed.domainWithoutSuffix) {
    return failure(input, 'bare_tld', `"${input}" is a top-level domain; give a name under it, e.g. example.${ascii}.`);
  }
  if (parsed.subdomain) {
    return failure(
      input,
      'subdomain_not_allowed',
      `"${input}" is a subdomain; only registrable names can be checked (here: ${parsed.domain}).`,
    );
  }
  return {
    ok: true,
    domain: {
      name: ascii,
      unicodeName: domainToUnicode(ascii),
      label: parsed.domainWithoutSuffix,
      tld: parsed.publicSuffix,
    },
  };
}

/** Why `ascii` breaks IDNA2008 (RFC 5891-5893 after non-transitional UTS #46), or null when it does not. */
function idna2008Error(ascii: string): string | null {
  if (!ascii.split('.').some((label) => label.startsWith('xn--'))) return null;
  try {
    idnHostname(ascii);
    return null;
  } catch (error) {
    return (error as Error).message.replace(/\s*\(RFC [^)]*\)\.?$/, '').trim() || 'it breaks the IDNA2008 rules';
  }
}

/** Like {@link parseDomain}, but throws the 400 `AppError` a route returns as is. */
export function normalizeDomain(raw: unknown): NormalizedDomain {
  const result = parseDomain(raw);
  if (!result.ok) throw appError(result.error.code, result.error.message, { details: { domain: result.input } });
  return result.domain;
}
