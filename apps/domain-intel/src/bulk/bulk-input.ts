import { type Availability, BULK_CHECK_MAX_DOMAINS } from '@repo/contracts/domain-intel';
import { parseDomain } from '../domain/normalize.ts';
import { appError } from '../error-catalogue.ts';

/** One distinct entry of a bulk list: a normalised name to check, or a malformed entry already decided. */
export type BulkEntry = { domain: string; invalid?: undefined } | { domain: string; invalid: Availability };

export interface BulkList {
  entries: BulkEntry[];
  /** Entries merged into an earlier one with the same normalised name (or the same malformed text). */
  duplicates: number;
  /** Distinct valid names: the calls of the daily quota the job takes. */
  valid: number;
}

/** A CSV's header row, when its first column is one of these, is not a name. */
const HEADER_NAMES = new Set(['domain', 'domains', 'name', 'domain_name', 'hostname']);

/** The names of a text upload: one per line, or a CSV's first column (quoted or not). */
export function namesOfText(text: string, csv: boolean): string[] {
  const names: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const name = csv ? firstCsvField(line) : line;
    if (name.trim() !== '') names.push(name);
  }
  if (csv && names.length > 0 && HEADER_NAMES.has(names[0]!.trim().toLowerCase())) names.shift();
  return names;
}

function firstCsvField(line: string): string {
  if (!line.startsWith('"')) {
    const comma = line.indexOf(',');
    return comma === -1 ? line : line.slice(0, comma);
  }
  // RFC 4180: a quoted field ends at a quote not followed by another; "" is one quote.
  let field = '';
  for (let i = 1; i < line.length; i++) {
    if (line[i] === '"') {
      if (line[i + 1] !== '"') break;
      i++;
    }
    field += line[i];
  }
  return field;
}

/**
 * The distinct entries of a list, in the order first given: valid names merged after
 * normalisation (Example.COM and example.com. are one item), malformed entries each decided as
 * /v1/check decides them (status invalid, the parse error's code as reason). Refuses an empty
 * list and one over BULK_CHECK_MAX_DOMAINS entries (counted as sent, before merging).
 */
export function bulkListOf(names: readonly string[], now: string): BulkList {
  if (names.length === 0) {
    throw appError('empty_domain_list', 'The list holds no name: send at least one.');
  }
  if (names.length > BULK_CHECK_MAX_DOMAINS) {
    throw appError(
      'too_many_domains',
      `A bulk check takes at most ${BULK_CHECK_MAX_DOMAINS.toLocaleString('en')} names; this list has ` +
        `${names.length.toLocaleString('en')}. Split it into several jobs.`,
      { details: { limit: BULK_CHECK_MAX_DOMAINS, given: names.length } },
    );
  }
  const seen = new Set<string>();
  const entries: BulkEntry[] = [];
  let valid = 0;
  for (const name of names) {
    const parsed = parseDomain(name);
    const key = parsed.ok ? parsed.domain.name : `\u0000${parsed.input}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (parsed.ok) {
      valid++;
      entries.push({ domain: parsed.domain.name });
    } else {
      entries.push({
        domain: parsed.input,
        invalid: {
          domain: parsed.input,
          available: null,
          status: 'invalid',
          source: 'rules',
          checked_at: now,
          reason: parsed.error.code,
          message: parsed.error.message,
        },
      });
    }
  }
  return { entries, duplicates: names.length - entries.length, valid };
}
