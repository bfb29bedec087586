import { DateTime } from 'luxon';

/**
 * An RDAP `eventDate` as an ISO 8601 UTC string, or null when it is not a date. RFC 9083 asks for
 * RFC 3339 times; real servers also send `+0000` offsets, one-digit fractions, and times without
 * any offset, or a blank instead of the `T`. Those are read as UTC, never in the process's time zone, so the answer does not
 * depend on where the service runs.
 */
export function rdapDate(value: string): string | null {
  // DK Hostmaster writes `2017-03-10 20:06:29` (SQL style: a blank for the `T`, no offset).
  let date = DateTime.fromISO(value.trim(), { zone: 'utc' });
  if (!date.isValid) date = DateTime.fromSQL(value.trim(), { zone: 'utc' });
  return date.isValid ? date.toUTC().toISO() : null;
}

const DAY_MS = 86_400_000;

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: number, to: number): number {
  return Math.trunc((to - from) / DAY_MS);
}
