import type { Availability } from '@repo/contracts/domain-intel';

/** The CSV columns of a bulk check's results: the /v1/check record's fields, flat. */
export const CSV_COLUMNS = [
  'domain',
  'available',
  'status',
  'source',
  'server',
  'checked_at',
  'cached',
  'reason',
  'message',
  'registry_status',
] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One result as a CSV row (no line break): `available` true/false or empty when unknown; statuses joined by `|`. */
export function toCsvRow(item: Availability): string {
  return [
    item.domain,
    item.available === null ? '' : String(item.available),
    item.status,
    item.source,
    item.server ?? '',
    item.checked_at,
    item.cached === undefined ? '' : String(item.cached),
    item.reason ?? '',
    item.message ?? '',
    item.registry_status?.join('|') ?? '',
  ]
    .map(field)
    .join(',');
}
