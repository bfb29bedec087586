import { readFileSync } from 'node:fs';
import { domainToASCII, fileURLToPath } from 'node:url';
import { TLD_TYPES } from '@repo/contracts/domain-intel';
import { z } from 'zod';
import type { TldType } from './iana-root-db.ts';

/**
 * The TLD tables shipped with the service (data/*.json: the root zone with each TLD's WHOIS server,
 * RDAP servers registries publish but IANA's bootstrap file lacks, ICANN's reserved second-level
 * labels), read once and checked, plus the two readers a refresh uses on IANA's own answers.
 * Where each table comes from: docs/design/tld-sources.md.
 */

const tldLabel = z.string().regex(/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/, 'a TLD in lower case, IDNs in xn-- form');
const hostName = z
  .string()
  .regex(
    /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/,
    'a host name',
  );
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
const rdapBaseUrl = z
  .string()
  .url()
  .refine((url) => url.startsWith('https://') && url.endsWith('/'), 'an https URL ending in /');
/** Where a part of a table was read: a public repository's copy at a commit, or IANA itself (`tlds refresh`). */
const provenance = z.union([
  z.object({
    part: z.string().min(1),
    repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
    path: z.string().min(1),
    commit: z.string().regex(/^[0-9a-f]{40}$/),
    commit_date: isoDate,
  }),
  z.object({ part: z.string().min(1), url: z.string().min(1), retrieved: isoDate }),
]);

const rootZoneFile = z.object({
  source: z.array(z.string().min(1)).min(1),
  published: z.object({ version: z.string().regex(/^\d{10}$/), last_updated: z.string().datetime() }),
  retrieved: isoDate,
  collected_from: z.array(provenance).min(1),
  note: z.string().min(1),
  tlds: z.array(z.object({ tld: tldLabel, type: z.enum(TLD_TYPES), whois: hostName.nullable() }).strict()).min(1),
});

const extraRdapFile = z.object({
  compared_with: z.string().min(1),
  note: z.string().optional(),
  entries: z.record(
    tldLabel,
    z
      .object({
        urls: z.array(rdapBaseUrl).min(1),
        operator: z.string().min(1),
        source: z.string().min(1),
        recorded_in: z.string().min(1),
        date: isoDate,
      })
      .strict(),
  ),
});

const reservedNamesFile = z.object({
  source: z.string().min(1),
  version: z.string().min(1),
  note: z.string().optional(),
  groups: z
    .array(
      z
        .object({
          section: z.string().min(1),
          labels: z.array(z.string().regex(/^[a-z0-9-]+$/)).min(1),
          applies_to: z.literal('gtld'),
        })
        .strict(),
    )
    .min(1),
  registry_lists: z.record(
    tldLabel,
    z.object({ source: z.string().min(1), labels: z.array(z.string().regex(/^[a-z0-9-]+$/)).min(1) }).strict(),
  ),
});

export type RootZoneEntry = { tld: string; type: TldType; whois: string | null };
export type RootZone = {
  source: string[];
  published: { version: string; lastUpdated: string };
  retrieved: string;
  collectedFrom: z.infer<typeof provenance>[];
  note: string;
  entries: RootZoneEntry[];
  /** TLD (lower case, xn-- form) → its entry. */
  byTld: Map<string, RootZoneEntry>;
};
export type ExtraRdapServer = { urls: string[]; operator: string; source: string; recordedIn: string; date: string };
export type ExtraRdapServers = {
  comparedWith: string;
  entries: Map<string, ExtraRdapServer>;
  /** TLD → base URLs: the form of RDAP_BOOTSTRAP_OVERRIDES, the default of RDAP_EXTRA_SERVERS. */
  servers: Record<string, string[]>;
};
export type ReservedNameData = {
  source: string;
  version: string;
  groups: { section: string; labels: string[]; appliesTo: 'gtld' }[];
  registryLists: Map<string, { source: string; labels: string[] }>;
  /** Every label of every group: the second-level labels no gTLD registers to the public. */
  gtldLabels: Set<string>;
};

const dataFile = (name: string) => fileURLToPath(new URL(`./data/${name}`, import.meta.url));
export const ROOT_ZONE_FILE = dataFile('root-zone.json');
export const EXTRA_RDAP_SERVERS_FILE = dataFile('rdap-extra-servers.json');
export const RESERVED_NAMES_FILE = dataFile('reserved-names.json');

function readDataFile<T>(file: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= load();
    return value;
  };
}

export function readRootZone(file: string): RootZone {
  const data = readDataFile(file, rootZoneFile);
  const byTld = new Map<string, RootZoneEntry>();
  for (const entry of data.tlds) {
    if (byTld.has(entry.tld)) throw new Error(`${file}: .${entry.tld} is listed twice`);
    byTld.set(entry.tld, entry);
  }
  return {
    source: data.source,
    published: { version: data.published.version, lastUpdated: data.published.last_updated },
    retrieved: data.retrieved,
    collectedFrom: data.collected_from,
    note: data.note,
    entries: data.tlds,
    byTld,
  };
}

export function readExtraRdapServers(file: string): ExtraRdapServers {
  const data = readDataFile(file, extraRdapFile);
  const entries = new Map<string, ExtraRdapServer>();
  const servers: Record<string, string[]> = {};
  for (const [tld, entry] of Object.entries(data.entries)) {
    entries.set(tld, {
      urls: entry.urls,
      operator: entry.operator,
      source: entry.source,
      recordedIn: entry.recorded_in,
      date: entry.date,
    });
    servers[tld] = [...entry.urls];
  }
  return { comparedWith: data.compared_with, entries, servers };
}

export function readReservedNameData(file: string): ReservedNameData {
  const data = readDataFile(file, reservedNamesFile);
  const groups = data.groups.map((group) => ({
    section: group.section,
    labels: group.labels,
    appliesTo: group.applies_to,
  }));
  return {
    source: data.source,
    version: data.version,
    groups,
    registryLists: new Map(Object.entries(data.registry_lists)),
    gtldLabels: new Set(groups.flatMap((group) => group.labels)),
  };
}

/** The built-in root-zone table (data/root-zone.json), read on first use. */
export const loadRootZone = once(() => readRootZone(ROOT_ZONE_FILE));
/** The built-in table of RDAP servers beyond IANA's file (data/rdap-extra-servers.json). */
export const loadExtraRdapServers = once(() => readExtraRdapServers(EXTRA_RDAP_SERVERS_FILE));
/** ICANN's reserved second-level labels and registries' own lists (data/reserved-names.json). */
export const loadReservedNameData = once(() => readReservedNameData(RESERVED_NAMES_FILE));

export type TldList = { version: string; lastUpdated: string; tlds: string[] };

/**
 * IANA's list of TLDs (https://data.iana.org/TLD/tlds-alpha-by-domain.txt): a
 * `# Version 2026072401, Last Updated Fri Jul 24 18:55:10 2026 UTC` line, then one upper-case TLD
 * per line. TLDs come back in lower case; anything else in the file is an error, so a refresh
 * never ships a list it half understood.
 */
export function parseTldList(text: string): TldList {
  const lines = text.split(/\r?\n/);
  const header = /^# Version (\d{10}), Last Updated (.+)$/.exec(lines[0] ?? '');
  if (!header) throw new Error(`TLD list: the first line is not IANA's "# Version …, Last Updated …" line`);
  const updated = new Date(header[2]!);
  if (Number.isNaN(updated.getTime())) throw new Error(`TLD list: "${header[2]}" is not a date`);
  const tlds: string[] = [];
  lines.slice(1).forEach((line, index) => {
    if (line === '') return;
    if (!/^(?:[A-Z]{2,63}|XN--[A-Z0-9-]{1,59})$/.test(line)) {
      throw new Error(`TLD list: line ${index + 2} ("${line.slice(0, 80)}") is not a TLD`);
    }
    tlds.push(line.toLowerCase());
  });
  return { version: header[1]!, lastUpdated: updated.toISOString().replace('.000Z', 'Z'), tlds };
}

export type IanaWhoisAnswer = {
  tld: string;
  whois: string | null;
  organisation: string | null;
  status: string | null;
  created: string | null;
  changed: string | null;
};

/**
 * whois.iana.org's answer to a TLD query (`domain:`, `organisation:`, `whois:`, `status:`,
 * `created:`, `changed:` lines). Only IANA's object is read: it ends at its `source: IANA` line,
 * and whois clients print the registry's answer after it. The TLD's organisation is the first
 * `organisation:` line before the contacts; an empty `whois:` line is null. IANA writes an IDN
 * TLD's `domain:` in Unicode (`РФ`); it comes back in its xn-- form, as the tables key it.
 */
export function parseIanaWhoisAnswer(text: string): IanaWhoisAnswer {
  const fields = new Map<string, string>();
  let inContacts = false;
  for (const line of text.split(/\r?\n/)) {
    const match = /^([a-z-]+):\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (key === 'source') break;
    if (key === 'contact') inContacts = true;
    if (key === 'organisation' && inContacts) continue;
    if (!fields.has(key)) fields.set(key, value);
  }
  const domain = fields.get('domain');
  if (!domain) throw new Error('IANA WHOIS answer: no "domain:" line');
  const tld = domainToASCII(domain.toLowerCase());
  if (!tld) throw new Error(`IANA WHOIS answer: "${domain}" is not a domain name`);
  const field = (key: string) => fields.get(key) || null;
  return {
    tld,
    whois: field('whois')?.toLowerCase() ?? null,
    organisation: field('organisation'),
    status: field('status'),
    created: field('created'),
    changed: field('changed'),
  };
}
