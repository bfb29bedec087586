import type { SimDomain, SimEppStatus } from '../world.ts';

/**
 * Fills a WHOIS answer template (a real server's answer with its values replaced by
 * placeholders) from the simulated world:
 *   {{domain}} {{DOMAIN}}            the name, lower / upper case
 *   {{registrar}} {{ianaId}} {{registrarUrl}} {{registrarHost}} {{abuseEmail}}
 *   {{registrant}} {{handle}}        the holder's organisation, a stable per-name number
 *   {{state}}                        the registry's own word for the name's state (the format says it)
 *   {{created|FMT}} {{expires|FMT}} {{updated|FMT}} {{now|FMT}}   dates in the server's time zone
 *   {{ns.1}} … {{ns.4}}              the n-th nameserver, or nothing
 * A line holding {{ns}}, {{NS}} or {{status}} is repeated once per nameserver / EPP status
 * (none: the line is dropped); {{n}} and {{nn}} there are the 1-based index, plain and two digits.
 * FMT tokens: YYYY YY MMM MM DD ddd HH mm ss SSS ZZ (±hh:mm); other characters are copied.
 */
export interface RenderContext {
  domain?: SimDomain;
  /** The name asked for, lowercase. */
  name: string;
  now: number;
  timeZone: string;
  state?: string;
}

const EPP: Record<SimEppStatus, string> = {
  active: 'ok',
  'client transfer prohibited': 'clientTransferProhibited',
  'client hold': 'clientHold',
  'server hold': 'serverHold',
  'redemption period': 'redemptionPeriod',
  'pending delete': 'pendingDelete',
  'pending restore': 'pendingRestore',
};

export function eppStatuses(domain: SimDomain): string[] {
  return domain.status.map((status) => EPP[status]);
}

export function renderTemplate(template: string, context: RenderContext): string {
  const lines: string[] = [];
  for (const line of template.split('\n')) {
    const list = listOf(line, context);
    if (!list) {
      lines.push(fill(line, context));
      continue;
    }
    list.values.forEach((value, index) => {
      const withItem = line
        .replaceAll(`{{${list.key}}}`, value)
        .replaceAll('{{nn}}', String(index + 1).padStart(2, '0'))
        .replaceAll('{{n}}', String(index + 1));
      lines.push(fill(withItem, context));
    });
  }
  return lines.join('\n');
}

function listOf(line: string, { domain }: RenderContext): { key: string; values: string[] } | undefined {
  if (line.includes('{{ns}}')) return { key: 'ns', values: domain?.nameservers ?? [] };
  if (line.includes('{{NS}}')) return { key: 'NS', values: (domain?.nameservers ?? []).map((ns) => ns.toUpperCase()) };
  if (line.includes('{{status}}')) return { key: 'status', values: domain ? eppStatuses(domain) : [] };
  return undefined;
}

function fill(line: string, context: RenderContext): string {
  return line.replace(/\{\{([A-Za-z.0-9]+)(?:\|([^}]*))?\}\}/g, (whole, key: string, format?: string) => {
    const value = placeholderValue(key, format, context);
    if (value === undefined) throw new Error(`unknown WHOIS template placeholder ${whole}`);
    return value;
  });
}

function placeholderValue(key: string, format: string | undefined, context: RenderContext): string | undefined {
  const { domain, name, now, timeZone } = context;
  const dateOf = (time: number | undefined) =>
    time === undefined ? '' : formatDate(time, format ?? 'YYYY-MM-DDTHH:mm:ssZZ', timeZone);
  const nsIndex = /^ns\.(\d)$/.exec(key);
  if (nsIndex) return domain?.nameservers[Number(nsIndex[1]) - 1] ?? '';
  switch (key) {
    case 'domain':
      return name;
    case 'DOMAIN':
      return name.toUpperCase();
    case 'registrar':
      return domain?.registrar.name ?? '';
    case 'ianaId':
      return domain?.registrar.ianaId ?? '';
    case 'registrarUrl':
      return domain?.registrar.url ?? '';
    case 'registrarHost':
      return domain ? new URL(domain.registrar.url).hostname : '';
    case 'abuseEmail':
      return domain ? `abuse@${new URL(domain.registrar.url).hostname}` : '';
    case 'registrant':
      return registrantOf(name);
    case 'handle':
      return String(stableNumber(name));
    case 'state':
      return context.state ?? '';
    case 'created':
      return dateOf(domain?.createdAt);
    case 'expires':
      return dateOf(domain?.expiresAt);
    case 'updated':
      return dateOf(domain?.updatedAt);
    case 'now':
      return dateOf(now);
    default:
      return undefined;
  }
}

/** The holder the simulator gives every name, as the RDAP registrar records do. */
export function registrantOf(name: string): string {
  const owner = name.split('.')[0] ?? name;
  return `${owner.charAt(0).toUpperCase()}${owner.slice(1)} Holdings LLC`;
}

/** A number that stays the same for a name across runs (registry object ids, handles). */
export function stableNumber(name: string): number {
  let hash = 2166136261;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return 1_000_000 + (hash % 9_000_000);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `time` as the wall clock of `timeZone` reads it, in `format` (tokens above). */
export function formatDate(time: number, format: string, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
      timeZoneName: 'longOffset',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(time).map((part) => [part.type, part.value]));
  const offset = /GMT([+-]\d{2}:\d{2})/.exec(parts.timeZoneName ?? '')?.[1] ?? '+00:00';
  const month = Number(parts.month);
  const tokens: Record<string, string> = {
    YYYY: parts.year ?? '',
    YY: (parts.year ?? '').slice(-2),
    MMM: MONTHS[month - 1] ?? '',
    MM: parts.month ?? '',
    DD: parts.day ?? '',
    ddd: WEEKDAYS[WEEKDAYS.indexOf(parts.weekday ?? '')] ?? '',
    HH: parts.hour ?? '',
    mm: parts.minute ?? '',
    ss: parts.second ?? '',
    SSS: String(new Date(time).getUTCMilliseconds()).padStart(3, '0'),
    ZZ: offset,
  };
  return format.replace(/YYYY|YY|MMM|MM|DD|ddd|HH|mm|ss|SSS|ZZ/g, (token) => tokens[token] ?? token);
}
