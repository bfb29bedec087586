const numbers = new Intl.NumberFormat('en-US');

/** A count as people read it: 12,345 (the pages are in English). */
export function formatNumber(value: number): string {
  return numbers.format(value);
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character]!);

/**
 * A date (2026-03-10) or, with `time`, a date and time (2026-03-10 12:00), in UTC, as HTML: a
 * `<time class="date">` element, which the stylesheet keeps on one line, so a table cell or a
 * sentence never breaks it. For `<%~ %>` in the templates; the value is escaped here.
 */
export function formatDate(value: string | number, options: { time?: boolean } = {}): string {
  const iso = new Date(value).toISOString();
  const shown = options.time ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
  return `<time class="date" datetime="${escapeHtml(iso)}">${escapeHtml(shown)}</time>`;
}

/** What every template gets as `it.format`. */
export const pageFormats = { number: formatNumber, date: formatDate };
