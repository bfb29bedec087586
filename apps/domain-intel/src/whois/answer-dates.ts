import { DateTime } from 'luxon';
import { rdapDate } from '../rdap/dates.ts';

/**
 * A date as a WHOIS server writes it, as ISO 8601 UTC (the RDAP reader's form), or null when it
 * is not a date we can read without guessing. Seen in the real answers (test/fixtures/real/whois/):
 * `2019-08-29T02:41:07-0700` (basic offset), `2011-03-30T19:36:27+02:00`, `2013-04-21 01:05:35`,
 * `2014-04-21`, `2005/05/30`, JPRS `2001/02/21 00:00:00 (JST)`, `1997.09.23`, NIC.br `19990118`,
 * `23.01.2014`, Nominet `11-Jun-1999`, Verisign's old `11-jan-2009`, Neustar's
 * `Mon Apr 26 07:50:40 GMT 2010`, DNS Belgium's `Tue Dec 12 2000`. A time without an offset is
 * read as UTC, as the RDAP reader does. `01/02/2023` is ambiguous: it is read only when the answer
 * declares day-first (`order`) or one part is above 12; a time zone name we do not know fixes
 * nothing, so null.
 */
export type DateOrder = 'day-first' | null;

const ZONE_OFFSETS: Readonly<Record<string, string>> = { JST: '+09:00', UTC: 'Z', GMT: 'Z', Z: 'Z' };

export function whoisDate(raw: string, order: DateOrder = null): string | null {
  // NIC.br follows a date with ` #<ticket>`; JPRS puts its zone in parentheses.
  let value = raw
    .replace(/\s+#\d+$/, '')
    .replace(/\((\w+)\)$/, '$1')
    .trim();
  let offset = '';
  const zone = /\s+([A-Z]{1,5})$/.exec(value);
  if (zone?.[1]) {
    const known = ZONE_OFFSETS[zone[1]];
    if (known === undefined) return null;
    offset = known;
    value = value.slice(0, zone.index).trim();
  }
  const iso = isoLike(value, order);
  if (iso === null) return null;
  if (offset !== '' && /(Z|[+-]\d{2}:?\d{2})$/.test(iso)) return null;
  return rdapDate(`${iso}${offset}`);
}

const MONTH_NAME = /^(\d{1,2})[- ]([A-Za-z]{3})[- ](\d{4})(?:\s+(\d{2}:\d{2}:\d{2}))?$/;

function isoLike(value: string, order: DateOrder): string | null {
  // ISO 8601 and its SQL-like variants; a basic offset (`-0700`) gets its colon.
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
    value,
  );
  if (iso) {
    const [, year, month, day, time, zone] = iso;
    const offset = zone ? (zone.toUpperCase() === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')) : '';
    return `${year}-${month}-${day}${time ? `T${time}` : ''}${offset}`;
  }
  const yearFirst = /^(\d{4})[/.](\d{2})[/.](\d{2})(?:\s+(\d{2}:\d{2}(?::\d{2})?))?$/.exec(value);
  if (yearFirst) {
    const [, year, month, day, time] = yearFirst;
    return `${year}-${month}-${day}${time ? `T${time}` : ''}`;
  }
  const compact = /^(\d{4})(\d{2})(\d{2})(?:\s+(\d{2}:\d{2}:\d{2}))?$/.exec(value);
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}${compact[4] ? `T${compact[4]}` : ''}`;
  // Day first with dots (Traficom writes `30.6.2006`).
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s+(\d{2}:\d{2}(?::\d{2})?))?$/.exec(value);
  if (dotted) {
    const [, day, month, year, time] = dotted;
    return `${year}-${month?.padStart(2, '0')}-${day?.padStart(2, '0')}${time ? `T${time}` : ''}`;
  }
  // Neustar's `Mon Apr 26 07:50:40 GMT 2010` (the zone already taken off above would be in the middle here).
  // DNS Belgium's `Tue Dec 12 2000` (no time).
  const weekday = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) +(\d{1,2}) (\d{4})$/.exec(value);
  if (weekday) {
    const [, month, day, year] = weekday;
    const date = DateTime.fromFormat(`${day?.padStart(2, '0')}-${month}-${year}`, 'dd-LLL-yyyy', {
      zone: 'utc',
      locale: 'en',
    });
    return date.isValid ? date.toISODate() : null;
  }
  const unix = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (?:GMT|UTC) (\d{4})$/.exec(value);
  if (unix) {
    const [, month, day, time, year] = unix;
    const date = DateTime.fromFormat(`${day?.padStart(2, '0')}-${month}-${year} ${time}`, 'dd-LLL-yyyy HH:mm:ss', {
      zone: 'utc',
      locale: 'en',
    });
    return date.isValid ? (date.toISO({ includeOffset: false }) ?? null) : null;
  }
  const slashed = /^(\d{2})[/-](\d{2})[/-](\d{4})$/.exec(value);
  if (slashed) {
    const [, first, second, year] = slashed;
    const dayFirst = order === 'day-first' || Number(first) > 12;
    const monthFirst = Number(second) > 12;
    if (dayFirst === monthFirst) return null;
    return dayFirst ? `${year}-${second}-${first}` : `${year}-${first}-${second}`;
  }
  const named = MONTH_NAME.exec(value);
  if (named) {
    const [, day, month, year, time] = named;
    const date = DateTime.fromFormat(
      `${day?.padStart(2, '0')}-${month?.toLowerCase()}-${year} ${time ?? '00:00:00'}`,
      'dd-LLL-yyyy HH:mm:ss',
      { zone: 'utc', locale: 'en' },
    );
    return date.isValid ? (date.toISO({ includeOffset: false }) ?? null) : null;
  }
  return null;
}
