import { ZoneError } from './errors.ts';

const TLD_PATTERN = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A TLD as the zones module keys it: lowercase ASCII (punycode for IDN TLDs), no dots. */
export function normalizeTld(input: string): string {
  const tld = input.trim().toLowerCase().replace(/^\./, '').replace(/\.$/, '');
  if (!TLD_PATTERN.test(tld)) {
    throw new ZoneError('invalid_tld', `"${input}" is not a top-level domain (expected e.g. "com" or "xn--p1ai").`);
  }
  return tld;
}

/** A calendar date YYYY-MM-DD that exists (2026-02-30 is refused). */
export function assertSnapshotDate(date: string): string {
  if (DATE_PATTERN.test(date)) {
    const parsed = new Date(`${date}T00:00:00Z`);
    if (!Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date) return date;
  }
  throw new ZoneError('invalid_date', `"${date}" is not a valid date (expected YYYY-MM-DD).`);
}
