import { domainToASCII, domainToUnicode } from 'node:url';
import { BRAND_TERM_MAX, BRAND_TERM_MIN } from '@repo/contracts/domain-intel';
import { appError } from '../error-catalogue.ts';

/** Letters of any script, combining marks, digits and hyphens: what an IDN label is made of. */
const LABEL_CHARACTERS = /^[\p{L}\p{M}\p{N}-]+$/u;

const invalid = (message: string, reason: string) =>
  appError('invalid_brand_term', message, { details: { parameter: 'brand', reason } });

/**
 * A saved filter's brand term as matched: one label without TLD (`paypal`, `bücher`, or its
 * `xn--` form), in Unicode NFC and lowercase. Refuses (400 `invalid_brand_term`) a term of
 * fewer than BRAND_TERM_MIN characters (one or two letters would match most of the feed), a
 * longer one than a DNS label allows, a term with a dot (the TLD is chosen with `tld`), and
 * anything not letters, digits and inner hyphens.
 */
export function normalizeBrandTerm(raw: unknown): string {
  if (typeof raw !== 'string') throw invalid('The brand term must be a text label such as "paypal".', 'type');
  const trimmed = raw.trim();
  if (trimmed.includes('.')) {
    throw invalid(
      `The brand term is a label without TLD ("paypal", not "paypal.com"); got "${trimmed}". Choose TLDs with the tld filter.`,
      'has_dot',
    );
  }
  const decoded = trimmed.toLowerCase().startsWith('xn--') ? domainToUnicode(trimmed) : trimmed;
  const term = decoded.normalize('NFC').toLowerCase();
  const length = [...term].length;
  if (length < BRAND_TERM_MIN) {
    throw invalid(
      `A brand term needs at least ${BRAND_TERM_MIN} characters; "${term}" has ${length}: shorter terms look like too many names to alert on.`,
      'too_short',
    );
  }
  if (!LABEL_CHARACTERS.test(term) || term.startsWith('-') || term.endsWith('-')) {
    throw invalid(
      `The brand term must be letters, digits and inner hyphens (a domain label); got "${trimmed}".`,
      'characters',
    );
  }
  const ascii = domainToASCII(term);
  if (length > BRAND_TERM_MAX || ascii === '' || ascii.length > BRAND_TERM_MAX) {
    throw invalid(
      `The brand term must fit a domain label (at most ${BRAND_TERM_MAX} characters, also in its xn-- form); got "${trimmed}".`,
      'too_long',
    );
  }
  return term;
}

/** A feed row's label in Unicode (an `xn--` label decoded; one that does not decode stays as it is). */
export function unicodeLabel(domain: string, tld: string): string {
  const label = domain.slice(0, domain.length - tld.length - 1);
  if (!label.includes('xn--')) return label;
  const decoded = domainToUnicode(label);
  return decoded === '' ? label : decoded.normalize('NFC');
}
