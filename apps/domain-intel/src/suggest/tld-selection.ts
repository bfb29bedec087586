import { parseDomain } from '../domain/normalize.ts';
import { appError } from '../error-catalogue.ts';

export const MAX_REQUESTED_TLDS = 20;

/**
 * The TLDs a suggestion run covers, most preferred first: the caller's `tld` list in their
 * order, or the defaults (tracked + popular). A TLD the keyword named (`coolshop.com`) goes
 * first. Unknown TLDs are a 400 `unknown_tld`, so a typo never silently yields nothing.
 */
export function resolveTlds(raw: string | undefined, defaults: readonly string[], tldHint?: string): string[] {
  if (raw === undefined || raw.trim() === '') return unique([...(tldHint ? [tldHint] : []), ...defaults]);
  const requested = unique(
    raw
      .split(',')
      .map((entry) => entry.trim().toLowerCase().replace(/^\./, ''))
      .filter(Boolean),
  );
  if (requested.length === 0) throw appError('invalid_tld', 'The tld parameter lists no TLD, e.g. tld=com,io.');
  if (requested.length > MAX_REQUESTED_TLDS) {
    throw appError('too_many_tlds', `Ask for at most ${MAX_REQUESTED_TLDS} TLDs at once.`, {
      details: {
        tlds: requested.length,
      },
    });
  }
  return requested.map((tld) => {
    const parsed = parseDomain(`example.${tld}`);
    if (!parsed.ok || parsed.domain.label !== 'example') {
      throw appError('unknown_tld', `"${tld}" is not a top-level domain we know.`, { details: { tld } });
    }
    return parsed.domain.tld;
  });
}

const unique = (values: string[]) => [...new Set(values)];
